import { isCount, isObject, type RateLimitHeaders, type Redactor, rateLimitHeaders } from "@content-scraper/runtime";
import { successEnvelope } from "./generated/scraper.operations.js";

/** What a call cost and how close the caller is to its rate limit, from the body's `meta` and the X-Scraper headers. */
export interface ScraperMeta {
  creditsCharged: number;
  creditsRemaining: number;
  requestId: string;
  upstreamCalls: number;
  rateLimit: RateLimitState;
}

/** The HTTP side of a result: what came back and what it took. */
export interface ResponseInfo {
  status: number;
  headers: Headers;
  /** Requests sent for the call, retries included. */
  attempts: number;
  /** From the call's start to the answer's last byte, pacing and retry waits included. */
  elapsedMs: number;
}

/** What every convenience method resolves to. */
export interface ScraperResult<Data> {
  data: Data;
  meta: ScraperMeta;
  response: ResponseInfo;
}

/**
 * `X-Scraper-RateLimit-Limit`, `-Remaining` (the limit closest to being reached) and `-Reset` (as sent: its format is
 * not documented). A count that is not a non-negative integer reads as `undefined`; a repeated header as
 * its smallest value.
 */
export type RateLimitState = RateLimitHeaders;

/** The success envelope every scraper operation answers (2.1 of the reference). */
export interface SuccessEnvelope {
  data: Record<string, unknown>;
  request_id: string;
  upstream_calls: number;
  meta: { credits_charged: number; credits_remaining: number };
}

/** What each kind of envelope field must be (the description's `SuccessEnvelope`, as codegen read it). */
const kinds = {
  object: { check: isObject, what: "an object" },
  string: { check: (value: unknown) => typeof value === "string", what: "a string" },
  integer: { check: Number.isSafeInteger, what: "an integer" },
  count: { check: isCount, what: "a non-negative integer" },
} as const;

// Each field's check, read once from the description's envelope: a success's check allocates nothing.
const fieldChecks = Object.entries(successEnvelope).map(([path, kind]) => {
  const [head, field] = path.split(".") as [string, string | undefined];
  return { path, kind, head, field, ...kinds[kind] };
});

/**
 * What keeps `body` from being the success envelope, or `undefined` when it is one: every field the description
 * requires is there with its type, and the money (`meta.credits_*`) and lookup counts are non-negative integers, so no
 * answer can make a walk or a budget gain credits. Checked with `validateResponses` off too, so that no `TypeError`
 * comes out of a bad body.
 */
export function envelopeProblem(body: unknown): { path: string; message: string; keyword: string } | undefined {
  if (!isObject(body)) {
    const what = body === null ? "null" : Array.isArray(body) ? "an array" : `a ${typeof body}`;
    return { path: "", message: `the body is ${what}, not an object`, keyword: "type" };
  }
  for (const { path, kind, head, field, check, what } of fieldChecks) {
    const value = field === undefined ? body[head] : (body[head] as Record<string, unknown>)[field];
    if (check(value)) continue;
    const missing = value === undefined;
    return { path: `/${path.replace(".", "/")}`, message: `${path} is ${missing ? "missing" : `not ${what}`}`, keyword: missing ? "required" : kind === "count" ? "minimum" : "type" };
  }
  return undefined;
}

/** The meta of a success, without a credential the service echoed in its request id (`headers` come redacted). */
export function successMeta(body: SuccessEnvelope, headers: Headers, redactor: Redactor): ScraperMeta {
  return {
    creditsCharged: body.meta.credits_charged,
    creditsRemaining: body.meta.credits_remaining,
    requestId: redactor.text(body.request_id),
    upstreamCalls: body.upstream_calls,
    rateLimit: rateLimitHeaders(headers, "x-scraper-ratelimit"),
  };
}
