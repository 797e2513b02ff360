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

export type Operation = {
  operationId: string;
  tags: string[];
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
export type Header = { required?: boolean; schema: unknown; example?: unknown };

/** Every (path, operation) of the document. */
export function operations(document: OpenApiDocument): Array<{ path: string; operation: Operation }> {
  const paths = document.paths as Record<string, { post?: Operation }>;
  return Object.entries(paths).flatMap(([path, item]) => (item.post ? [{ path, operation: item.post }] : []));
}
