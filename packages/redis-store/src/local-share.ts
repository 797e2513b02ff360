import type { BucketLimit } from "@content-scraper/runtime";

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Where a process paces while Redis does not answer: its share of the account's rate, requestsPerMinute / `workers`,
 * so that the fleet together stays within the rate as long as no more than `workers` processes share it. A share
 * starts empty, because the shared bucket it replaces may have been drained a moment ago, and it is forgotten when
 * Redis answers again (the next outage starts empty too). Same bucket arithmetic as the Redis scripts, on this
 * process's monotonic clock.
 */
export class LocalShare {
  readonly #buckets = new Map<string, Bucket>();

  constructor(
    readonly workers: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  take(key: string, limit: BucketLimit): number {
    const { bucket, perMs, now } = this.#refilled(key, limit);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil(bucket.at - now + (1 - bucket.tokens) / perMs));
  }

  correct(key: string, limit: BucketLimit, remaining: number): void {
    const { bucket, capacity } = this.#refilled(key, limit);
    bucket.tokens = Math.min(bucket.tokens, Math.max(0, Math.min(capacity, remaining)));
  }

  pause(key: string, limit: BucketLimit, ms: number): void {
    const { bucket, now } = this.#refilled(key, limit);
    bucket.tokens = 0;
    bucket.at = Math.max(bucket.at, now + ms);
  }

  forget(key: string): void {
    this.#buckets.delete(key);
  }

  #refilled(key: string, limit: BucketLimit) {
    const perMs = limit.requestsPerMinute / this.workers / 60_000;
    const capacity = Math.max(1, (limit.requestsPerMinute / this.workers) * (limit.burstSeconds / 60));
    const now = this.now();
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      bucket = { tokens: 0, at: now };
      this.#buckets.set(key, bucket);
    }
    if (now > bucket.at) {
      bucket.tokens = Math.min(capacity, bucket.tokens + (now - bucket.at) * perMs);
      bucket.at = now;
    }
    return { bucket, perMs, capacity, now };
  }
}
