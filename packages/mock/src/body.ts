import type { ValidationError, ValidationResult } from "@content-scraper/validators";

// One body-validation step for every surface: the raw body is decoded in the operation's documented media type (JSON,
// or a form) and checked with the precompiled validators generated from the same description. A problem is said in
// the same terms everywhere (the field, and the JSON Schema keyword or pattern that failed); each surface answers it in
// its own envelope (the scraper's 400 INVALID_INPUT, the OAuth API's `invalid_request`, RFC 6749's on protocol endpoints).

/** The parts of a request schema this module reads. */
export interface Schema {
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  pattern?: string;
  const?: unknown;
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

// `fatal`: bytes that are not UTF-8 are malformed, not silently replaced. One decoder serves every body: it keeps no
// state between whole-buffer calls.
const utf8 = new TextDecoder("utf-8", { fatal: true });

function decode(raw: Buffer, mediaType: string): ReadBody {
  if (mediaType === formMediaType) {
    const form: Record<string, string> = {};
    const sent = new Set<string>();
    for (const [name, value] of new URLSearchParams(raw.toString("utf8"))) {
      // RFC 6749 §3.2: a parameter must not be sent more than once, and one sent without a value counts as left out.
      if (sent.has(name)) return { ok: false, problem: { message: `The form parameter ${name} is sent more than once.`, field: name, reason: "malformed form" } };
      sent.add(name);
      if (value !== "") form[name] = value;
    }
    return { ok: true, body: form };
  }
  try {
    return { ok: true, body: JSON.parse(utf8.decode(raw)) };
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

/**
 * The errors that are the body's problem when its schema is a union that one property's `const` tells apart (the
 * /token grants, by `grant_type`): the validators report every branch's failures, but only the branch the body picks
 * applies. A missing tag, or one that picks no branch, is itself the problem.
 */
function pickedErrors(errors: readonly ValidationError[], schema: Schema | undefined, body: unknown): readonly ValidationError[] {
  const branches = schema?.oneOf ?? [];
  const tags = new Set(branches.flatMap((branch) => Object.entries(branch.properties ?? {}).filter(([, property]) => property.const !== undefined).map(([name]) => name)));
  const [tag] = tags;
  if (tags.size !== 1 || tag === undefined || typeof body !== "object" || body === null || Array.isArray(body)) return errors;
  if (!Object.hasOwn(body, tag)) {
    // Without the tag no branch applies: that it is missing is the problem.
    const missing = errors.filter((error) => fieldOf(error.path) === tag);
    return missing.length ? missing.slice(0, 1) : errors;
  }
  const value = (body as Record<string, unknown>)[tag];
  const picked = branches.find((branch) => branch.properties?.[tag]?.const === value);
  if (!picked) {
    const named = branches.map((branch) => branch.properties?.[tag]?.const).filter((name) => name !== undefined);
    return [{ path: `/${tag}`, keyword: "oneOf", message: `\`${tag}\` must be ${named.map(String).join(", ")} or another value the description allows` }];
  }
  const fields = new Set([...(declaredFields(picked) ?? []), ...(picked.required ?? [])]);
  const own = errors.filter((error) => {
    const top = fieldOf(error.path)?.split(".")[0];
    return top !== undefined && top !== tag && fields.has(top);
  });
  return own.length ? own : errors;
}

export interface BodyRules {
  validate: ValidateRequest;
  operationId: string;
  /** The documented media type of the request body. */
  mediaType: string;
  /** The request schema (dereferenced), to name a failed pattern and the branch a tagged union's body picks. */
  schema?: Schema | undefined;
}

/** The decoded body, valid against the operation's request schema, or the first problem with it. */
export function readBody(raw: Buffer | undefined, { validate, operationId, mediaType, schema }: BodyRules): ReadBody {
  const decoded = raw === undefined ? ({ ok: true, body: undefined } as const) : decode(raw, mediaType);
  if (!decoded.ok) return decoded;
  const result = validate(operationId, decoded.body, { contentType: mediaType });
  if (result.valid) return decoded;
  const [first, ...others] = pickedErrors(result.errors, schema, decoded.body);
  if (!first) return decoded;
  const field = fieldOf(first.path);
  const pattern = first.keyword === "pattern" && field ? fieldSchemas(schema, field).find((part) => part.pattern)?.pattern : undefined;
  const more = others.length ? ` (and ${others.length} more problem${others.length === 1 ? "" : "s"})` : "";
  return { ok: false, problem: { message: first.message + more, ...(field === undefined ? {} : { field }), reason: pattern ?? first.keyword } };
}
