import { integerHeader } from "@content-scraper/runtime";

/** What a call cost and how close the caller is to its rate limit, from the body's `meta` and the X-Scraper headers. */
export interface ScraperMeta {
  creditsCharged: number;
  creditsRemaining: number;
  requestId: string;
  upstreamCalls: number;
  rateLimit: RateLimitState;
}

/** The rate-limit headers of an answer: the limit closest to being reached. */
export interface RateLimitState {
  limit: number | undefined;
  remaining: number | undefined;
  /** As the service sent it: its format is not documented in v1.3.0, so it is not interpreted. */
  reset: string | undefined;
}

export function rateLimitState(headers: Headers): RateLimitState {
  return {
    limit: integerHeader(headers, "x-scraper-ratelimit-limit"),
    remaining: integerHeader(headers, "x-scraper-ratelimit-remaining"),
    reset: headers.get("x-scraper-ratelimit-reset") ?? undefined,
  };
}

interface SuccessBody {
  request_id: string;
  upstream_calls: number;
  meta: { credits_charged: number; credits_remaining: number };
}

export function successMeta(body: SuccessBody, headers: Headers): ScraperMeta {
  return {
    creditsCharged: body.meta.credits_charged,
    creditsRemaining: body.meta.credits_remaining,
    requestId: body.request_id,
    upstreamCalls: body.upstream_calls,
    rateLimit: rateLimitState(headers),
  };
}
