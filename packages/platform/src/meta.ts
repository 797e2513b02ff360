import { type RateLimitHeaders, rateLimitHeaders } from "@content-scraper/runtime";

/** What an OAuth platform call returned besides its body. */
export interface PlatformMeta {
  /** The success status: v1.3.0 does not document which 2xx each operation answers. */
  status: number;
  /** Requests sent for this call: more than 1 after waiting out a 429's `Retry-After`. */
  attempts: number;
  /** The `Idempotency-Key` sent (every `POST`, `PATCH` and `PUT` of a resource endpoint has one). */
  idempotencyKey: string | undefined;
  /** The response headers. The names of this API's rate-limit headers are not documented in v1.3.0, so none is parsed. */
  headers: Headers;
}

/**
 * `X-RateLimit-Limit` (requests per minute: 100 per key, 400 for allowlisted partner accounts), `-Remaining` and
 * `-Reset` (as sent: its format is not documented) of the key-based API, on every response. A count that
 * is not a non-negative integer reads as `undefined`; a repeated header as its smallest value.
 */
export type RateLimitState = RateLimitHeaders;

/** What a key-based platform call returned besides its body. */
export interface LegacyMeta {
  status: number;
  attempts: number;
  rateLimit: RateLimitState;
}

export function legacyRateLimit(headers: Headers): RateLimitState {
  return rateLimitHeaders(headers, "x-ratelimit");
}

/** What every convenience method resolves to. */
export interface PlatformResult<Data, Meta = PlatformMeta> {
  data: Data;
  meta: Meta;
}
