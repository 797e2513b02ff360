import { onAbort } from "./abort.js";
import { ContentScraperError } from "./errors.js";
import { readAmount, StoreReplyError } from "./figures.js";
import type { BucketLimit, RateLimitStore } from "./stores.js";
import { setTimer } from "./timers.js";

interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
}

/** The call's deadline passed while it waited for a token: it was never sent. */
export class PacingTimeout extends ContentScraperError {
  override name = "PacingTimeout";
}

/** The milliseconds a store's `take` asks to wait (0: a token was taken), checked: anything else is a `StoreReplyError`. */
function checkedWait(reply: unknown): number {
  const ms = readAmount(reply);
  if (ms === undefined || typeof reply !== "number") throw new StoreReplyError("take", reply);
  return ms;
}

/**
 * A client's side of a shared token bucket: waits for a token before each attempt, and passes the service's count
 * and `Retry-After` on to the store. The calls of one process wait in line, first come first served, and only the
 * first asks the store, so a thousand waiting calls cost one timer, not a thousand polls. A store's reply that is not a
 * wait (nil, NaN, a negative, a string) fails every call in line: no token is ever granted on a reply nobody can read.
 * A call leaves the line when its signal aborts or its deadline passes, and the line's timer stops once nobody waits.
 */
export class Pacer {
  readonly #line: Waiter[] = [];
  #serving = false;
  /** Ends the serving loop's sleep early, once the line is empty. */
  #wake: (() => void) | undefined;

  constructor(
    readonly store: RateLimitStore,
    /** The bucket's name in the store; a promise while it is being derived (a digest of the credential). */
    readonly key: string | Promise<string>,
    readonly limit: BucketLimit,
  ) {}

  /**
   * Resolves to the milliseconds waited once a token is taken. Rejects with the signal's reason if it aborts first, with
   * `PacingTimeout` if `until` (a `performance.now()` time) passes first, or with the store's failure.
   */
  async wait(signal?: AbortSignal, until?: number): Promise<number> {
    if (this.#line.length === 0 && !this.#serving) {
      const ms = checkedWait(await this.store.take(await this.key, this.limit));
      if (ms === 0) return 0;
    }
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const leave = (reason: unknown) => {
        const index = this.#line.indexOf(waiter);
        if (index >= 0) this.#line.splice(index, 1);
        if (this.#line.length === 0) this.#wake?.();
        waiter.reject(reason);
      };
      const detach = signal ? onAbort(signal, () => leave(signal.reason)) : undefined;
      const cancel = until === undefined ? undefined : setTimer(() => leave(new PacingTimeout("the call's deadline passed while it waited for pacing")), until - performance.now());
      const settle = () => {
        detach?.();
        cancel?.();
      };
      const waiter: Waiter = {
        resolve() {
          settle();
          resolve();
        },
        reject(reason) {
          settle();
          reject(reason);
        },
      };
      this.#line.push(waiter);
      void this.#serve();
    });
    return performance.now() - started;
  }

  /** Never more tokens than the service says remain (as of `ageMs` ago, when its answer's request left). */
  async correct(remaining: number | undefined, ageMs = 0): Promise<void> {
    if (remaining !== undefined) await this.store.correct(await this.key, this.limit, remaining, ageMs);
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
        const ms = checkedWait(await this.store.take(await this.key, this.limit));
        if (ms === 0) this.#line.shift()?.resolve();
        else await this.#sleep(ms);
      }
    } catch (error) {
      // The store failed or answered what no one can read: every call in line fails with its error, none waits forever.
      for (const waiter of this.#line.splice(0)) waiter.reject(error);
    } finally {
      this.#serving = false;
    }
  }

  /** Sleeps `ms`, or less if the line empties meanwhile: no timer of the pacer outlives the calls that wait. */
  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const cancel = setTimer(() => {
        this.#wake = undefined;
        resolve();
      }, ms);
      this.#wake = () => {
        this.#wake = undefined;
        cancel();
        resolve();
      };
    });
  }
}
