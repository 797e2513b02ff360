import { onAbort } from "./abort.js";
import { setTimer } from "./timers.js";

/** The reason an aborted signal carries, or a standard AbortError when it has none. */
export function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** Waits `ms` (any length: see `setTimer`), or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const detach = signal
      ? onAbort(signal, () => {
          cancel();
          reject(abortReason(signal));
        })
      : undefined;
    const cancel = setTimer(() => {
      detach?.();
      resolve();
    }, ms);
  });
}
