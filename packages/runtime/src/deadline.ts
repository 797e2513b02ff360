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
 * timeout it only follows the caller's signal. An attempt through a `wire` meter is ended by the meter instead, on
 * the caller's abort as on the timeout, and fetch gets no signal at all (a signal is fetch's costliest option: an agent
 * server that passes each call's signal on paid a third of the client's own time for it).
 */
export function deadline(timeoutMs: number | undefined, userSignal: AbortSignal | undefined, wire?: WireMeter): Deadline {
  if (timeoutMs === undefined && !userSignal) return { signal: undefined, timedOut: () => false, clear() {} };
  let timedOut = false;
  if (wire) {
    const cancel =
      timeoutMs === undefined
        ? undefined
        : setTimer(() => {
            timedOut = true;
            wire.end(new Error(`no answer within ${timeoutMs} ms`));
          }, timeoutMs);
    // The caller's abort ends the attempt (`send` tells it from a timeout by the caller's signal being aborted).
    const detach = userSignal && onAbort(userSignal, () => wire.end(new Error("aborted by the caller")));
    return {
      signal: undefined,
      timedOut: () => timedOut,
      clear() {
        cancel?.();
        detach?.();
      },
    };
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
