// The sandbox's one clock. Every timed rule of every surface reads it instead of the wall clock: token buckets and
// their Retry-After, idempotency keys' retention, access tokens' lifetime, catalogs that grow, `slow` answers and
// injected latency. It runs with real time, plus whatever `advance` added, like a test clock.

interface Sleeper {
  at: number;
  timer: NodeJS.Timeout;
  wake(): void;
}

export class SandboxClock {
  #offsetMs = 0;
  readonly #sleepers = new Set<Sleeper>();

  /**
   * Sandbox time, in whole Unix milliseconds as `Date.now()` gives them. `advance` may add a fraction of a millisecond
   * (`advance(ms / 1000)` of a jittered backoff): it counts towards the offset, and the time read stays whole, so what
   * is made of it (request ids, headers, timestamps) keeps its format.
   */
  now(): number {
    return Math.floor(Date.now() + this.#offsetMs);
  }

  /** How far `advance` has moved the clock ahead of real time, in milliseconds. */
  get advancedMs(): number {
    return this.#offsetMs;
  }

  /** Moves sandbox time forward; waits that end meanwhile end now. */
  advance(ms: number): void {
    this.#offsetMs += ms;
    const now = this.now();
    for (const sleeper of this.#sleepers) if (sleeper.at <= now) sleeper.wake();
  }

  /** Back to real time (a reset of the whole sandbox). Waits under way keep their end in sandbox time. */
  reset(): void {
    this.#offsetMs = 0;
  }

  /** Resolves once `ms` of sandbox time has passed: in real time, or as soon as `advance` gets there. */
  sleep(ms: number): Promise<void> {
    if (!(ms > 0)) return Promise.resolve();
    return new Promise((resolve) => {
      const sleeper: Sleeper = {
        at: this.now() + ms,
        timer: setTimeout(() => sleeper.wake(), ms),
        wake: () => {
          clearTimeout(sleeper.timer);
          this.#sleepers.delete(sleeper);
          resolve();
        },
      };
      this.#sleepers.add(sleeper);
    });
  }
}
