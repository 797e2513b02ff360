import { setTimer } from "./timers.js";

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
 * timeout it only follows the caller's signal.
 */
export function deadline(timeoutMs: number | undefined, userSignal: AbortSignal | undefined): Deadline {
  if (timeoutMs === undefined) return { signal: userSignal, timedOut: () => false, clear() {} };
  const controller = new AbortController();
  let timedOut = false;
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
