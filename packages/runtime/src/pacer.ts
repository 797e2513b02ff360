import { sleep } from "./sleep.js";
import type { BucketLimit, RateLimitStore } from "./stores.js";

interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
}

/**
 * A client's side of a shared token bucket: waits for a token before each attempt, and passes the service's count
 * and `Retry-After` on to the store. The calls of one process wait in line, first come first served, and only the
 * first asks the store, so a thousand waiting calls cost one timer, not a thousand polls.
 */
export class Pacer {
  readonly #line: Waiter[] = [];
  #serving = false;

  constructor(
    readonly store: RateLimitStore,
    /** The bucket's name in the store; a promise while it is being derived (a digest of the credential). */
    readonly key: string | Promise<string>,
    readonly limit: BucketLimit,
  ) {}

  /** Resolves to the milliseconds waited once a token is taken; rejects with the signal's reason if aborted first. */
  async wait(signal?: AbortSignal): Promise<number> {
    if (this.#line.length === 0 && !this.#serving) {
      const ms = await this.store.take(await this.key, this.limit);
      if (ms === 0) return 0;
    }
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.#line.splice(this.#line.indexOf(waiter), 1);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        resolve() {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        reject(reason) {
          signal?.removeEventListener("abort", onAbort);
          reject(reason);
        },
      };
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#line.push(waiter);
      void this.#serve();
    });
    return performance.now() - started;
  }

  /** Never more tokens than the service says remain. */
  async correct(remaining: number | undefined): Promise<void> {
    if (remaining !== undefined) await this.store.correct(await this.key, this.limit, remaining);
  }

  /** No token for anyone sharing the bucket until `ms` from now (a 429's `Retry-After`). */
  async pause(ms: number): Promise<void> {
    await this.store.pause(await this.key, this.limit, ms);
  }

  async #serve(): Promise<void> {
    if (this.#serving) return;
    this.#serving = true;
    try {
      while (this.#line.length > 0) {
        const ms = await this.store.take(await this.key, this.limit);
        if (ms === 0) this.#line.shift()?.resolve();
        else await sleep(ms);
      }
    } catch (error) {
      // The store failed (a remote store out of reach): every call in line fails with its error, none waits forever.
      for (const waiter of this.#line.splice(0)) waiter.reject(error);
    } finally {
      this.#serving = false;
    }
  }
}
