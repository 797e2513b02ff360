/** The longest delay `setTimeout` honours: 2³¹−1 ms (about 24.8 days). A longer one fires after 1 ms instead. */
export const maxTimerMs = 2 ** 31 - 1;

/**
 * Calls `callback` after `ms`: the one timer of the runtime and the clients, so that no delay ever overflows. A delay
 * beyond `maxTimerMs` is a chain of timers, `Infinity` never fires, and a negative or NaN delay is 0. Returns the
 * function that cancels it.
 */
export function setTimer(callback: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout>;
  const arm = (remaining: number) => {
    timer = remaining > maxTimerMs ? setTimeout(() => arm(remaining - maxTimerMs), maxTimerMs) : setTimeout(callback, remaining);
  };
  arm(Number.isNaN(ms) ? 0 : Math.max(ms, 0));
  return () => clearTimeout(timer);
}
