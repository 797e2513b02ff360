import type { ValidationResult } from "@content-scraper/validators";

// One body-validation step for every surface: the raw body is decoded in the operation's documented media type (JSON,
// or a form) and checked with the precompiled validators generated from the same description. A problem is said in
// the same terms everywhere (the field, and the JSON Schema keyword or pattern that failed); each surface answers it in
// its own envelope (the scraper's 400 INVALID_INPUT, the OAuth API's `invalid_request`, RFC 6749's on protocol endpoints).

/** The parts of a request schema this module reads. */
export interface Schema {
  properties?: Record<string, Schema>;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  pattern?: string;
}

/** What is wrong with a body. */
export interface BodyProblem {
  message: string;
  /** The offending field (dotted path), where there is one. */
  field?: string;
  /** The pattern for a pattern, `malformed JSON` / `malformed form`, else the JSON Schema keyword that failed. */
  reason: string;
}

export type ReadBody = { ok: true; body: unknown } | { ok: false; problem: BodyProblem };

/** A surface's `validateRequest` from `@content-scraper/validators/<surface>`. */
// biome-ignore lint/suspicious/noExplicitAny: each surface's validator takes its own operationId union.
export type ValidateRequest = (operationId: any, body: unknown, options?: { contentType?: string }) => ValidationResult;

export const formMediaType = "application/x-www-form-urlencoded";

function decode(raw: Buffer, mediaType: string): ReadBody {
  if (mediaType === formMediaType) {
    const form: Record<string, string> = {};
    for (const [name, value] of new URLSearchParams(raw.toString("utf8"))) {
      // RFC 6749 §3.2: a parameter must not be sent more than once.
      if (Object.hasOwn(form, name)) return { ok: false, problem: { message: `The form parameter ${name} is sent more than once.`, field: name, reason: "malformed form" } };
      form[name] = value;
    }
    return { ok: true, body: form };
  }
  try {
    // `fatal`: bytes that are not UTF-8 are malformed, not silently replaced.
    return { ok: true, body: JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(raw)) };
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

export interface BodyRules {
  validate: ValidateRequest;
  operationId: string;
  /** The documented media type of the request body. */
  mediaType: string;
  /** The request schema, to name a failed pattern. */
  schema?: Schema | undefined;
}

/** The decoded body, valid against the operation's request schema, or the first problem with it. */
export function readBody(raw: Buffer | undefined, { validate, operationId, mediaType, schema }: BodyRules): ReadBody {
  const decoded = raw === undefined ? ({ ok: true, body: undefined } as const) : decode(raw, mediaType);
  if (!decoded.ok) return decoded;
  const result = validate(operationId, decoded.body, { contentType: mediaType });
  if (result.valid) return decoded;
  const [first, ...others] = result.errors;
  if (!first) return decoded;
  const field = fieldOf(first.path);
  const pattern = first.keyword === "pattern" && field ? fieldSchemas(schema, field).find((part) => part.pattern)?.pattern : undefined;
  const more = others.length ? ` (and ${others.length} more problem${others.length === 1 ? "" : "s"})` : "";
  return { ok: false, problem: { message: first.message + more, ...(field === undefined ? {} : { field }), reason: pattern ?? first.keyword } };
}
