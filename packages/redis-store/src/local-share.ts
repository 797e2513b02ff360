import { type BucketLimit, memoryRateLimitStore, type RateLimitStore } from "@content-scraper/runtime";

/**
 * Where a process paces while Redis does not answer: the runtime's in-memory bucket, at this process's share of the
 * account's rate (requestsPerMinute / `workers`, and the same share of the burst), so that the fleet together stays
 * within the rate as long as no more than `workers` processes share the key. A share starts empty, because the shared
 * bucket it stands in for may have been drained a moment ago; `reset` (Redis answers again) drops every share, so the
 * next outage starts empty too.
 */
export class LocalShare {
  #store: RateLimitStore;
  readonly #started = new Set<string>();

  constructor(
    readonly workers: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.#store = memoryRateLimitStore(now);
  }

  take(key: string, limit: BucketLimit): number {
    return this.#store.take(key, this.#share(key, limit)) as number;
  }

  correct(key: string, limit: BucketLimit, remaining: number, ageMs?: number): void {
    this.#store.correct(key, this.#share(key, limit), remaining, ageMs);
  }

  pause(key: string, limit: BucketLimit, ms: number): void {
    this.#store.pause(key, this.#share(key, limit), ms);
  }

  reset(): void {
    if (this.#started.size === 0) return;
    this.#store = memoryRateLimitStore(this.now);
    this.#started.clear();
  }

  #share(key: string, limit: BucketLimit): BucketLimit {
    const share = { requestsPerMinute: limit.requestsPerMinute / this.workers, burstSeconds: limit.burstSeconds };
    if (!this.#started.has(key)) {
      this.#started.add(key);
      this.#store.correct(key, share, 0);
    }
    return share;
  }
}
