import { setTimer } from "./timers.js";
import type { WireMeter } from "./wire.js";

/** A timeout joined with the caller's signal, as `deadline` makes it. */
export interface Deadline {
  /** Aborts on the caller's signal or when the time is up; `undefined` when there is neither. */
  readonly signal: AbortSignal | undefined;
  /** Whether the time ran out (as opposed to the caller aborting). */
  timedOut(): boolean;
  /** Stops the timer and detaches from the caller's signal. */
  clear(): void;
}

/**
 * Aborts on the caller's signal or after `timeoutMs`, whichever comes first; `timedOut` tells which. Without a
 * timeout it only follows the caller's signal. Without a signal of the caller's, an attempt through a `wire` meter
 * is ended by the meter instead, and fetch gets no signal at all (a signal is fetch's costliest option).
 */
export function deadline(timeoutMs: number | undefined, userSignal: AbortSignal | undefined, wire?: WireMeter): Deadline {
  if (timeoutMs === undefined) return { signal: userSignal, timedOut: () => false, clear() {} };
  let timedOut = false;
  if (wire && !userSignal) {
    const cancel = setTimer(() => {
      timedOut = true;
      wire.end(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    return { signal: undefined, timedOut: () => timedOut, clear: cancel };
  }
  const controller = new AbortController();
  const onAbort = () => controller.abort(userSignal?.reason);
  const cancel = setTimer(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  if (userSignal?.aborted) onAbort();
  else userSignal?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    clear() {
      cancel();
      userSignal?.removeEventListener("abort", onAbort);
    },
  };
}
