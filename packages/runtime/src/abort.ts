interface Listeners {
  readonly listeners: Set<() => void>;
}

// One listener of our own per signal, however many calls share it: a signal shared by more than ten calls would
// otherwise draw Node's MaxListenersExceededWarning, and each call would leave a listener behind until it settles.
const registry = new WeakMap<AbortSignal, Listeners>();

/**
 * Calls `listener` once when `signal` aborts (at once, in a microtask, if it already has). Returns the function that
 * detaches it; every listener of the runtime goes through here, so a signal carries one listener of ours at most.
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  if (signal.aborted) {
    let detached = false;
    queueMicrotask(() => detached || listener());
    return () => {
      detached = true;
    };
  }
  let entry = registry.get(signal);
  if (!entry) {
    const created: Listeners = { listeners: new Set() };
    signal.addEventListener(
      "abort",
      () => {
        registry.delete(signal);
        for (const each of [...created.listeners]) each();
      },
      { once: true },
    );
    registry.set(signal, created);
    entry = created;
  }
  const { listeners } = entry;
  // A fresh function per call, so that the same listener attached twice is detached once each.
  const each = () => listener();
  listeners.add(each);
  return () => listeners.delete(each);
}
