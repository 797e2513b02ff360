import type { InputErrorFactory } from "./environment.js";
import type { Redactor } from "./redact.js";
import type { Answer, Outgoing } from "./send.js";

/** Query values: `undefined` and `null` are left out, arrays repeat the name. */
export type Query = Record<string, string | number | boolean | ReadonlyArray<string | number | boolean> | null | undefined>;

// A segment that moves up or stays (`..`, `.`, in any percent-encoding): resolved, it would leave the base path.
const dotSegment = /^(?:\.|%2e){1,2}$/i;

/**
 * `baseUrl` + `path`, with `{name}` placeholders filled from `pathParams` (percent-encoded) and the query appended,
 * or `fail`s naming what is unusable: a placeholder without a value (a request to a literal `{id}` would reach the
 * wrong resource), and a path or a value that would leave the base path once resolved (a dot segment, a backslash, a
 * second slash, another scheme or host): a key never reaches a resource outside the API it is for.
 */
export function buildUrl(baseUrl: string, path: string, pathParams: Record<string, string | number> = {}, query: Query = {}, fail: InputErrorFactory): string {
  const relative = path.startsWith("/") ? path.slice(1) : path;
  if (/^[a-z][a-z0-9+.-]*:|\\|\/\//i.test(path) || relative.split("/").some((segment) => dotSegment.test(segment))) {
    throw fail("path", "path must be relative to baseUrl, without dot segments, backslashes or a host.");
  }
  const filled = relative.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = pathParams[name];
    if (value === undefined || value === "") throw fail(`pathParams.${name}`, `the path ${path} needs a value for {${name}}.`);
    if (dotSegment.test(String(value))) throw fail(`pathParams.${name}`, `pathParams.${name} must not be a dot segment.`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  const text = search.toString();
  return `${baseUrl}/${filled}${text ? `?${text}` : ""}`;
}

/**
 * The parts of a fetch `Request` (as openapi-fetch hands it to a custom fetch), body read once so it can be re-sent.
 * A caller's `redirect: "manual"` keeps a redirect as the answer; otherwise the clients' own policy applies.
 */
export async function outgoingFrom(request: Request): Promise<Outgoing> {
  const body = request.body ? await request.arrayBuffer() : undefined;
  return { url: request.url, method: request.method, headers: request.headers, body, keepRedirect: request.redirect === "manual" };
}

/** A fresh response over a body already read, for a caller (such as openapi-fetch) that reads the body itself. */
export function responseFrom({ response, text }: Pick<Answer, "response" | "text">): Response {
  return new Response(text === "" ? null : text, response);
}

/** Whether `value` is a JSON object (not `null`, not an array). */
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** `value` if it is a string, else `undefined`: a field of an answer that may be missing or of another type. */
export const optionalString = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** The JSON in `text`, or `undefined` when it is empty or not JSON. */
export function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * What an error message may quote of an answer's body, never the body as it came: its JSON parsed and written again
 * (so that no escape a server chose can carry a credential past the redactor), or else its text; redacted, trimmed
 * and cut to 200 characters. Empty for an empty body.
 */
export function bodyExcerpt(text: string, redactor: Redactor): string {
  const parsed = parseJson(text);
  return redactor.text(parsed === undefined ? text.trim() : JSON.stringify(parsed)).slice(0, 200);
}

/**
 * A success's JSON, `undefined` for an empty body; a body that is not JSON (HTML from a proxy, a truncated answer)
 * throws `fail()`, the client's typed error, rather than letting a `SyntaxError` out (openapi-fetch would throw one).
 */
export function successJson(text: string, fail: () => Error): unknown {
  const value = parseJson(text);
  if (value === undefined && text.trim() !== "") throw fail();
  return value;
}
