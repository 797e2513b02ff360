import { type RateLimitHeaders, rateLimitHeaders } from "@content-scraper/runtime";

/** What a call cost and how close the caller is to its rate limit, from the body's `meta` and the X-Scraper headers. */
export interface ScraperMeta {
  creditsCharged: number;
  creditsRemaining: number;
  requestId: string;
  upstreamCalls: number;
  rateLimit: RateLimitState;
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

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * What keeps `body` from being the success envelope, or `undefined` when it is one: the fields the client reads must
 * be there with their types (checked with `validateResponses` off too, so that no `TypeError` comes out of a bad body).
 */
export function envelopeProblem(body: unknown): { path: string; message: string; keyword: string } | undefined {
  if (!isObject(body)) {
    const what = body === null ? "null" : Array.isArray(body) ? "an array" : `a ${typeof body}`;
    return { path: "", message: `the body is ${what}, not an object`, keyword: "type" };
  }
  if (!isObject(body.data)) return { path: "/data", message: "data is missing or not an object", keyword: "required" };
  if (!isObject(body.meta)) return { path: "/meta", message: "meta is missing or not an object", keyword: "required" };
  for (const field of ["credits_charged", "credits_remaining"]) {
    if (typeof body.meta[field] !== "number") return { path: `/meta/${field}`, message: `meta.${field} is missing or not a number`, keyword: "required" };
  }
  if (typeof body.request_id !== "string") return { path: "/request_id", message: "request_id is missing or not a string", keyword: "required" };
  if (typeof body.upstream_calls !== "number") return { path: "/upstream_calls", message: "upstream_calls is missing or not a number", keyword: "required" };
  return undefined;
}

export function successMeta(body: SuccessEnvelope, headers: Headers): ScraperMeta {
  return {
    creditsCharged: body.meta.credits_charged,
    creditsRemaining: body.meta.credits_remaining,
    requestId: body.request_id,
    upstreamCalls: body.upstream_calls,
    rateLimit: rateLimitHeaders(headers, "x-scraper-ratelimit"),
  };
}
