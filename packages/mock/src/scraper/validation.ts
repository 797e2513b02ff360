import { validateRequest } from "@content-scraper/validators/scraper";

// Request bodies are checked with the precompiled validators generated from the same description, and a failure is
// answered in the service's own terms: 400 INVALID_INPUT with `field` and `reason` (for a pattern, the pattern itself).

/** The parts of a request schema this module reads. */
export interface Schema {
  properties?: Record<string, Schema>;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  pattern?: string;
}

export interface InvalidInput {
  message: string;
  field?: string;
  reason: string;
}

export type Parsed = { ok: true; body: unknown } | { ok: false; problem: InvalidInput };

export function parseJson(raw: Buffer | undefined): Parsed {
  if (raw === undefined) return { ok: true, body: undefined };
  try {
    return { ok: true, body: JSON.parse(raw.toString("utf8")) };
  } catch (error) {
    return { ok: false, problem: { message: `The request body is not valid JSON: ${(error as Error).message}`, reason: "malformed JSON" } };
  }
}

/** Every schema a field of `schema` has, through `allOf`/`oneOf`/`anyOf`. */
function fieldSchemas(schema: Schema | undefined, field: string): Schema[] {
  if (!schema) return [];
  const own = schema.properties?.[field];
  const nested = [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])].flatMap((part) => fieldSchemas(part, field));
  return own ? [own, ...nested] : nested;
}

/** The request's documented fields, or `undefined` where the description shows none (an open schema). */
export function declaredFields(schema: Schema | undefined): string[] | undefined {
  if (!schema) return undefined;
  const names = new Set(Object.keys(schema.properties ?? {}));
  for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) {
    for (const name of declaredFields(part) ?? []) names.add(name);
  }
  return names.size ? [...names] : undefined;
}

const fieldOf = (pointer: string) =>
  pointer === "" ? undefined : pointer.slice(1).split("/").map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~")).join(".");

/** The first problem of an invalid body, in the service's terms; `undefined` for a valid one. */
export function invalidInput(operationId: string, body: unknown, schema: Schema | undefined): InvalidInput | undefined {
  const result = validateRequest(operationId as Parameters<typeof validateRequest>[0], body);
  if (result.valid) return undefined;
  const [first, ...others] = result.errors;
  if (!first) return undefined;
  const field = fieldOf(first.path);
  const pattern = first.keyword === "pattern" && field ? fieldSchemas(schema, field).find((part) => part.pattern)?.pattern : undefined;
  const more = others.length ? ` (and ${others.length} more problem${others.length === 1 ? "" : "s"})` : "";
  return { message: first.message + more, ...(field === undefined ? {} : { field }), reason: pattern ?? first.keyword };
}
