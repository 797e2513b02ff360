import type { Options } from "ajv";
import standalone from "ajv/dist/standalone/index.js";
import { createOpenApiAjv, type OpenApiDocument } from "../openapi-json-schema.js";
import { deref, operationTable } from "../operation-table.js";

// Precompiled validators for every request and response body of a description: one ESM module per surface
// (ajv standalone code), its declarations, and a table saying which export validates which body.

// CommonJS whose export is both `module.exports` and `.default`; only `.default` is typed under NodeNext.
const standaloneCode = standalone.default;

/** Media type → name of the exported validator. */
export type BodyValidators = Record<string, string>;

export interface OperationValidators {
  request?: { required: boolean; content: BodyValidators };
  /** By documented status: `"200"`, a range such as `"4XX"`, or `"default"`. */
  responses: Record<string, BodyValidators>;
}

export type ValidatorTable = Record<string, OperationValidators>;

/**
 * The ajv options the modules are generated with; a run-time compiled baseline must use the same ones.
 * - `inlineRefs: false`: every `$defs` schema becomes one function that all validators of the module call.
 * - `verbose`: errors carry `data`, `schema` and `parentSchema`, which the runtime needs to word its messages
 *   (for instance the property names of a `oneOf` of `required` branches). It costs nothing on valid bodies.
 * - `messages: false`: the runtime writes its own messages, so ajv's would be dead weight in the module.
 * - `allErrors` stays on (createOpenApiAjv's default): a body's every problem is reported at once.
 */
export const validatorOptions = { inlineRefs: false, verbose: true, messages: false } satisfies Options;

type Node = Record<string, unknown>;
const componentSchema = /^#\/components\/schemas\/([^/]+)$/;

/** A JavaScript identifier for an export, from a component name or a location (`InvalidInput` + `application/json`). */
const identifier = (name: string) => name.replace(/[^A-Za-z0-9_$]+/g, "_").replace(/^(?=\d)/, "_");

/**
 * Every body schema of the document, with the export that will validate it. A body whose schema is a component
 * (`$ref: '#/components/schemas/X'`) is validated by `X`; an inline schema gets a name from where it is written (its
 * component response or request body, else the operation) and joins the component schemas as one more `$defs` entry,
 * so that it shares their functions instead of compiling its own copies.
 */
export function validatorSchemas(document: OpenApiDocument, id: string) {
  const components = document.components?.schemas ?? {};
  const inline: Record<string, unknown> = {};
  const exports: Record<string, string> = {};
  const table: ValidatorTable = {};

  const bodies = (owner: string, content: unknown): BodyValidators => {
    const validators: BodyValidators = {};
    for (const [mediaType, media] of Object.entries((content ?? {}) as Record<string, Node>)) {
      // An absent schema allows any body (OpenAPI), which is what `{}` says.
      const schema = (media.schema ?? {}) as Node;
      const ref = typeof schema.$ref === "string" && Object.keys(schema).length === 1 ? componentSchema.exec(schema.$ref)?.[1] : undefined;
      const defName = ref ?? identifier(`${owner}_${mediaType}`);
      const name = identifier(defName);
      const target = `${id}#/$defs/${defName}`;
      const taken = ref ? exports[name] !== undefined && exports[name] !== target : defName in components || (defName in inline && inline[defName] !== schema);
      if (taken) throw new Error(`the body schema of ${owner} ${mediaType} cannot be exported as ${name}: the name is taken`);
      if (!ref) inline[defName] = schema;
      exports[name] = target;
      validators[mediaType] = name;
    }
    return validators;
  };
  // The component a `$ref` names (`#/components/responses/InvalidInput` → `InvalidInput`), else the fallback.
  const ownerOf = (node: unknown, fallback: string) => {
    const ref = (node as Node | undefined)?.$ref;
    return typeof ref === "string" ? (ref.split("/").pop() ?? fallback) : fallback;
  };

  for (const { operationId, method, path } of Object.values(operationTable(document).operations)) {
    const operation = (document.paths as Record<string, Record<string, Node>>)[path]?.[method.toLowerCase()] as Node;
    const requestBody = operation.requestBody ? deref(document, operation.requestBody) : undefined;
    // Left out of the generated table when the operation takes no body (JSON drops `undefined`).
    const request = requestBody && {
      required: Boolean(requestBody.required),
      content: bodies(ownerOf(operation.requestBody, `${operationId}_request`), requestBody.content),
    };
    const responses: OperationValidators["responses"] = {};
    for (const [status, response] of Object.entries(operation.responses as Node)) {
      responses[status] = bodies(ownerOf(response, `${operationId}_${status}`), deref(document, response).content);
    }
    table[operationId] = { request, responses };
  }
  const withInline = { ...document, components: { ...document.components, schemas: { ...components, ...inline } } };
  return { document: withInline, exports, table };
}

/** An ajv instance holding every body schema of the document (see {@link validatorSchemas}), not yet compiled. */
export function validatorAjv(document: OpenApiDocument, api: string, options: Options = {}) {
  const id = `https://content-scraper.test/${api}.json`;
  const { document: withInline, exports, table } = validatorSchemas(document, id);
  const ajv = createOpenApiAjv(withInline, id, { ...validatorOptions, ...options });
  return { ajv, exports, table };
}

/**
 * ajv's standalone code still says `require(…)` for the helpers it uses (`ajv/dist/runtime/ucs2length`, the formats of
 * ajv-formats) even with `esm: true`. Import each instead, and bind its CommonJS `module.exports` to a name that the
 * code's `require("m").x` becomes. Loaders shape a CommonJS namespace differently (Node and esbuild put `module.exports`
 * under `default`; vite and rollup lift an `__esModule` module's own `default` there), hence the small interop.
 * Neither package has an `exports` map, so deep paths need their `.js`.
 */
const deepPath = /^(?:@[^/]+\/)?[^/]+\/(?:.+\/)?[^./]+$/;
function esmImports(code: string): string {
  const imports = new Map<string, string>();
  const body = code.replace(/require\("([^"]+)"\)/g, (_all, specifier: string) => {
    const name = imports.get(specifier) ?? `${identifier(specifier)}_`;
    imports.set(specifier, name);
    return name;
  });
  if (imports.size === 0) return body;
  return [
    ...[...imports].map(([specifier, name]) => `import * as ${name}module from "${deepPath.test(specifier) ? `${specifier}.js` : specifier}";`),
    "const commonjs_ = (namespace) => (namespace.default?.__esModule ? namespace.default : namespace);",
    ...[...imports.values()].map((name) => `const ${name} = commonjs_(${name}module);`),
    body.replace(/^"use strict";/, ""),
  ].join("\n");
}

/** The validator module of one surface (`.js`), its declarations (`.d.ts`); both deterministic. */
export function generateValidators(document: OpenApiDocument, api: string): { ".js": string; ".d.ts": string } {
  const { ajv, exports, table } = validatorAjv(document, api, { code: { source: true, esm: true, lines: false } });
  const code = esmImports(standaloneCode(ajv, exports));
  const js = `${code}\nexport const table = ${JSON.stringify(table)};\n`;
  const dts = [
    "/** One error of a validator: ajv's error object with `verbose` on and `messages` off. */",
    "export interface AjvError {",
    "  instancePath: string;",
    "  schemaPath: string;",
    "  keyword: string;",
    "  params: Record<string, unknown>;",
    "  data: unknown;",
    "  schema: unknown;",
    "  parentSchema: Record<string, unknown>;",
    "}",
    "/** A precompiled validator; `errors` holds the errors of its last call. */",
    "export interface Validator {",
    "  (data: unknown): boolean;",
    "  errors?: AjvError[] | null;",
    "}",
    "export type BodyValidators = Readonly<Record<string, string>>;",
    "/** Which export validates which body, by operationId, then status (or range, or `default`), then media type. */",
    "export declare const table: Readonly<Record<string, {",
    "  readonly request?: { readonly required: boolean; readonly content: BodyValidators };",
    "  readonly responses: Readonly<Record<string, BodyValidators>>;",
    "}>>;",
    ...Object.keys(exports).map((name) => `export declare const ${name}: Validator;`),
    "",
  ].join("\n");
  return { ".js": js, ".d.ts": dts };
}
