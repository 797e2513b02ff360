import type { Options } from "ajv";
import ajv2020 from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";

// Both are CommonJS whose export is both `module.exports` and `.default`; only `.default` is typed under NodeNext.
const Ajv2020 = ajv2020.default;
type Ajv2020 = InstanceType<typeof Ajv2020>;
const addFormats = ajvFormats.default;

/** An OpenAPI 3.1 document, as far as schema extraction needs it. */
export interface OpenApiDocument {
  components?: { schemas?: Record<string, unknown> };
  [key: string]: unknown;
}

const componentRef = /^#\/components\/schemas\//;

/**
 * OpenAPI 3.1 schemas are JSON Schema 2020-12 plus OpenAPI's own annotations. Ajv's strict mode rejects unknown
 * keywords, so we declare the annotations we know of instead of turning strict mode off: `example` (OpenAPI's
 * deprecated singular form) and every `x-…` extension found in the document.
 */
export function annotationKeywords(document: unknown): string[] {
  const found = new Set<string>(["example"]);
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith("x-")) found.add(key);
      visit(value);
    }
  };
  visit(document);
  return [...found].sort();
}

/** Deep copy of `node` with `#/components/schemas/X` refs pointed at `<id>#/$defs/X`. */
export function rebaseRefs<T>(node: T, id: string): T {
  return JSON.parse(JSON.stringify(node), (key, value) =>
    key === "$ref" && typeof value === "string" && componentRef.test(value)
      ? value.replace(componentRef, `${id}#/$defs/`)
      : value,
  ) as T;
}

/**
 * The document's component schemas as one JSON Schema resource (`{ $id, $defs }`), so that any schema of the
 * document, rebased with {@link rebaseRefs}, can be compiled against it.
 */
export function schemaResource(document: OpenApiDocument, id: string): { $id: string; $defs: Record<string, unknown> } {
  return { $id: id, $defs: rebaseRefs(document.components?.schemas ?? {}, id) };
}

/** An Ajv 2020-12 instance with formats and the document's annotation keywords, holding its schema resource. */
export function createOpenApiAjv(document: OpenApiDocument, id: string, options: Options = {}): Ajv2020 {
  // Unknown keywords stay errors (strictSchema). The type-consistency checks stay off: the descriptions narrow shared
  // components with `allOf` branches that add `items` or `required` without repeating `type`, which is valid 2020-12.
  const ajv = new Ajv2020({ allErrors: true, strictSchema: true, strictTypes: false, strictTuples: false, strictRequired: false, ...options });
  // "fast" formats: a URL is checked for a scheme and no whitespace rather than against the full RFC 3986 grammar,
  // which cost three quarters of the time of validating a page of posts.
  addFormats(ajv, { mode: "fast" });
  for (const keyword of annotationKeywords(document)) ajv.addKeyword({ keyword });
  ajv.addSchema(schemaResource(document, id));
  return ajv;
}
