import { onAbort } from "./abort.js";
import { setTimer } from "./timers.js";

/** A timeout joined with the caller's signal, as `deadline` makes it. */
export interface Deadline {
  /** Aborts on the caller's signal or when the time is up; `undefined` when there is neither. */
  readonly signal: AbortSignal | undefined;
  /** Whether the time ran out (as opposed to the caller aborting). */
  timedOut(): boolean;
  /**
   * `promise`, or a rejection as soon as `signal` aborts, whichever comes first. The limit so holds whether or not the
   * fetch or the body stream in use follows its signal; a value that comes after the rejection goes to `discard`.
   */
  race<T>(promise: Promise<T>, discard?: (late: T) => unknown): Promise<T>;
  /** Stops the timer and detaches from the caller's signal. */
  clear(): void;
}

const unbounded: Deadline = { signal: undefined, timedOut: () => false, race: (promise) => promise, clear() {} };

/**
 * Aborts on the caller's signal or after `timeoutMs`, whichever comes first; `timedOut` tells which. Without a
 * timeout it only follows the caller's signal. The signal is our own, following the caller's through one listener
 * (see `onAbort`): fetch adds its own listeners to the signal it is given, and a caller's signal shared by many calls
 * would collect them.
 */
export function deadline(timeoutMs: number | undefined, userSignal: AbortSignal | undefined): Deadline {
  if (timeoutMs === undefined && !userSignal) return unbounded;
  let timedOut = false;
  const controller = new AbortController();
  const { signal } = controller;
  const cancel =
    timeoutMs === undefined
      ? undefined
      : setTimer(() => {
          timedOut = true;
          controller.abort(new Error(`no answer within ${timeoutMs} ms`));
        }, timeoutMs);
  let detach: (() => void) | undefined;
  if (userSignal?.aborted) controller.abort(userSignal.reason);
  else if (userSignal) detach = onAbort(userSignal, () => controller.abort(userSignal.reason));
  let ended: Promise<never> | undefined;
  return {
    signal,
    timedOut: () => timedOut,
    race(promise, discard) {
      ended ??= new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason);
        else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
      if (discard) promise.then((late) => signal.aborted && discard(late), () => undefined);
      return Promise.race([promise, ended]);
    },
    clear() {
      cancel?.();
      detach?.();
    },
  };
}
