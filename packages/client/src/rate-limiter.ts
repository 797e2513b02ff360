import { abortReason, setTimer } from "@content-scraper/runtime";

interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/**
 * The client side of the service's token bucket: `requestsPerMinute` tokens refill continuously, up to a burst of
 * `burstSeconds` of allowance. One bucket is shared by every call of a client, so concurrent calls are paced
 * proactively instead of discovering the limit through 429s. Waiters are served first come, first served.
 */
export class TokenBucket {
  readonly capacity: number;
  readonly #perMs: number;
  #tokens: number;
  #updatedAt: number;
  #pausedUntil = 0;
  #cancelTimer: (() => void) | undefined;
  readonly #waiters: Waiter[] = [];

  constructor(
    requestsPerMinute: number,
    burstSeconds: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.capacity = Math.max(1, (requestsPerMinute * burstSeconds) / 60);
    this.#perMs = requestsPerMinute / 60_000;
    this.#tokens = this.capacity;
    this.#updatedAt = now();
  }

  /** Resolves when a token is available and taken; rejects with the signal's reason if aborted first. */
  take(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          reject(abortReason(signal));
        },
      };
      signal?.addEventListener("abort", waiter.onAbort, { once: true });
      this.#waiters.push(waiter);
      this.#serve();
    });
  }

  /**
   * Aligns the bucket with what the service reports: never more tokens locally than it says remain. The count is
   * clamped to what a bucket holds (0 to `capacity`), so no header can push the bucket below empty.
   */
  correct(remaining: number | undefined): void {
    if (remaining === undefined) return;
    this.#refill();
    this.#tokens = Math.min(this.#tokens, Math.max(0, Math.min(this.capacity, remaining)));
  }

  /** After a 429: no tokens until the service's `Retry-After` has passed. */
  pauseFor(ms: number): void {
    this.#tokens = 0;
    this.#updatedAt = Math.max(this.#updatedAt, this.now() + ms);
    this.#pausedUntil = Math.max(this.#pausedUntil, this.now() + ms);
    this.#serve();
  }

  #refill(): void {
    const now = this.now();
    if (now > this.#updatedAt) {
      this.#tokens = Math.min(this.capacity, this.#tokens + (now - this.#updatedAt) * this.#perMs);
      this.#updatedAt = now;
    }
  }

  #serve(): void {
    this.#refill();
    const paused = this.now() < this.#pausedUntil;
    while (!paused && this.#waiters.length > 0 && this.#tokens >= 1) {
      this.#tokens -= 1;
      const waiter = this.#waiters.shift() as Waiter;
      waiter.signal?.removeEventListener("abort", waiter.onAbort);
      waiter.resolve();
    }
    if (this.#waiters.length === 0 || this.#cancelTimer) return;
    const wait = paused ? this.#pausedUntil - this.now() : (1 - this.#tokens) / this.#perMs;
    this.#cancelTimer = setTimer(() => {
      this.#cancelTimer = undefined;
      this.#serve();
    }, Math.ceil(wait));
  }
}
