/** What a bucket says about itself, as the X-Scraper-RateLimit-* headers and Retry-After carry it. */
export interface BucketState {
  limit: number;
  remaining: number;
  /** Unix seconds at which the bucket is full again (the reference does not show the header's format: a sandbox choice). */
  reset: number;
  /** Seconds until the next token, at least 1. */
  retryAfter: number;
}

/**
 * A token bucket as the reference describes the service's: `burstSeconds` of allowance can be spent at once and the
 * refill is continuous, on the clock `now` reads (the sandbox's).
 */
export class TokenBucket {
  readonly #limit: number;
  readonly #capacity: number;
  readonly #perMs: number;
  readonly #now: () => number;
  #tokens: number;
  #updated: number;

  constructor(requestsPerMinute: number, burstSeconds: number, now: () => number) {
    this.#limit = requestsPerMinute;
    this.#capacity = (requestsPerMinute * burstSeconds) / 60;
    this.#perMs = requestsPerMinute / 60_000;
    this.#now = now;
    this.#tokens = this.#capacity;
    this.#updated = now();
  }

  #refill(): number {
    const now = this.#now();
    // max(): a clock set back (a reset of the whole sandbox) refills nothing rather than draining.
    this.#tokens = Math.min(this.#capacity, this.#tokens + Math.max(0, now - this.#updated) * this.#perMs);
    this.#updated = now;
    return now;
  }

  /** Takes a token if there is one. */
  take(): boolean {
    this.#refill();
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }

  /** Gives back a token taken for a request that, as the reference says, does not consume the rate limit. */
  giveBack(): void {
    this.#refill();
    this.#tokens = Math.min(this.#capacity, this.#tokens + 1);
  }

  /** Spends every token at once: the limit is reached in one call (a magic input). */
  drain(): void {
    this.#refill();
    this.#tokens = 0;
  }

  state(): BucketState {
    const now = this.#refill();
    return {
      limit: this.#limit,
      remaining: Math.floor(this.#tokens),
      reset: Math.ceil((now + (this.#capacity - this.#tokens) / this.#perMs) / 1000),
      retryAfter: Math.max(1, Math.ceil((1 - this.#tokens) / this.#perMs / 1000)),
    };
  }
}
