import { readFileSync } from "node:fs";
import { createOpenApiAjv, type OpenApiDocument, rebaseRefs } from "@content-scraper/codegen";

export const distDir = new URL("../dist/", import.meta.url);

export function loadBundle(api: string): OpenApiDocument {
  return JSON.parse(readFileSync(new URL(`${api}.json`, distDir), "utf8")) as OpenApiDocument;
}

/** Resolves a local `#/…` JSON pointer in the document. */
export function resolvePointer(document: unknown, pointer: string): unknown {
  return pointer
    .replace(/^#\/?/, "")
    .split("/")
    .filter(Boolean)
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], document);
}

/** Follows `$ref` chains (responses, examples, headers) to the object they name. */
export function deref<T>(document: unknown, node: unknown): T {
  let current: unknown = node;
  while (current && typeof current === "object" && "$ref" in current) {
    current = resolvePointer(document, (current as { $ref: string }).$ref);
  }
  return current as T;
}

/** A validator for any schema of the document (inline or `$ref`), backed by the document's component schemas. */
export function schemaValidator(api: string) {
  const document = loadBundle(api);
  const id = `https://content-scraper.test/${api}.json`;
  const ajv = createOpenApiAjv(document, id);
  return {
    document,
    validate(schema: unknown, value: unknown) {
      const validate = ajv.compile(rebaseRefs(schema as object, id));
      const valid = validate(value) as boolean;
      return { valid, errors: ajv.errorsText(validate.errors, { separator: "; " }) };
    },
  };
}

export const apis = ["scraper", "platform", "platform-legacy", "connect"] as const;
export type Api = (typeof apis)[number];

export type Parameter = { name: string; in: string; required?: boolean; schema: unknown; example?: unknown; [extension: `x-${string}`]: unknown };
export type Operation = {
  operationId: string;
  tags: string[];
  summary?: string;
  description?: string;
  deprecated?: boolean;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<Parameter | { $ref: string }>;
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, Response | { $ref: string }>;
  [extension: `x-${string}`]: unknown;
};
export type MediaType = { schema: unknown; example?: unknown; examples?: Record<string, { $ref: string } | { value: unknown }> };
export type Response = {
  description: string;
  headers?: Record<string, { $ref: string } | Header>;
  content?: Record<string, MediaType>;
  "x-billing"?: string;
};
export type Header = { required?: boolean; schema: unknown; example?: unknown; description?: string };

const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** Every (path, method, operation) of the document, with the path item's own parameters. */
export function operations(
  document: OpenApiDocument,
): Array<{ path: string; method: string; operation: Operation; pathParameters: Array<Parameter | { $ref: string }> }> {
  const paths = (document.paths ?? {}) as Record<string, Partial<Record<(typeof methods)[number], Operation>> & { parameters?: Parameter[] }>;
  return Object.entries(paths).flatMap(([path, item]) =>
    methods.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ path, method, operation, pathParameters: item.parameters ?? [] }] : [];
    }),
  );
}
