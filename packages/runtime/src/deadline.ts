import { onAbort } from "./abort.js";
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
  if (timeoutMs === undefined && !userSignal) return { signal: undefined, timedOut: () => false, clear() {} };
  let timedOut = false;
  if (wire && !userSignal && timeoutMs !== undefined) {
    const cancel = setTimer(() => {
      timedOut = true;
      wire.end(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    return { signal: undefined, timedOut: () => timedOut, clear: cancel };
  }
  // A signal of our own per attempt, following the caller's through one listener (see `onAbort`): fetch adds its own
  // listeners to the signal it is given, and a caller's signal shared by many calls would collect them.
  const controller = new AbortController();
  const cancel =
    timeoutMs === undefined
      ? undefined
      : setTimer(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs);
  let detach: (() => void) | undefined;
  if (userSignal?.aborted) controller.abort(userSignal.reason);
  else if (userSignal) detach = onAbort(userSignal, () => controller.abort(userSignal.reason));
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    clear() {
      cancel?.();
      detach?.();
    },
  };
}
