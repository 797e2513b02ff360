// Test support: the descriptions, dereferenced (spec/dist/<api>.deref.json), and every example they carry.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

export type Schema = boolean | { [keyword: string]: unknown };
type MediaType = { schema?: Schema; example?: unknown; examples?: Record<string, { value: unknown }> };
type Operation = {
  operationId: string;
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
};

const require = createRequire(import.meta.url);
export const readSpec = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(require.resolve(`@content-scraper/spec/${file}`), "utf8"));

const methods = new Set(["get", "put", "post", "delete", "patch", "head", "options", "trace"]);
const operationsOf = (api: string): Operation[] => {
  const document = readSpec(`${api}.deref.json`) as { paths: Record<string, Record<string, Operation>> };
  return Object.values(document.paths).flatMap((item) => Object.entries(item).flatMap(([key, value]) => (methods.has(key) ? [value] : [])));
};
export const operations = operationsOf("scraper");

export interface Example {
  name: string;
  operationId: string;
  /** The documented status, or `undefined` for a request body. */
  status?: string;
  mediaType: string;
  schema: Schema;
  value: unknown;
}

// Media-type examples (named and single) and the `examples` of the body's schema itself.
function examples(operationId: string, status: string | undefined, content: Record<string, MediaType> = {}): Example[] {
  return Object.entries(content).flatMap(([mediaType, media]) => {
    const schema = media.schema ?? {};
    const values: Array<[string, unknown]> = [
      ...Object.entries(media.examples ?? {}).map(([name, example]): [string, unknown] => [name, example.value]),
      ...("example" in media ? [["example", media.example] as [string, unknown]] : []),
      ...(typeof schema === "object" && Array.isArray(schema.examples) ? schema.examples.map((value, i): [string, unknown] => [`schema example ${i}`, value]) : []),
    ];
    return values.map(([name, value]) => ({ name: `${operationId} ${status ?? "request"} ${mediaType} ${name}`, operationId, status, mediaType, schema, value }));
  });
}

export const examplesOf = (api: string): Example[] =>
  operationsOf(api).flatMap((operation) => [
    ...examples(operation.operationId, undefined, operation.requestBody?.content),
    ...Object.entries(operation.responses).flatMap(([status, response]) => examples(operation.operationId, status, response.content)),
  ]);
export const allExamples = examplesOf("scraper");
