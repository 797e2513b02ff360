import type { AttemptEvent, RequestEvent, ResponseEvent, RetryEvent, SendHooks } from "@content-scraper/runtime";

export type { AttemptEvent, RequestEvent, ResponseEvent, RetryEvent };

/** A call failed: the error it rejects with (an answer's `ScraperApiError`, a timeout, an abort, a budget refusal, …). */
export interface ErrorEvent {
  /** The operationId, or `METHOD /path` for a path outside the description. */
  name: string;
  details: Readonly<Record<string, unknown>> | undefined;
  error: Error;
}

/**
 * Hooks that see every call of the client, whichever door it came through (a method, a walk, `api`): every attempt's
 * request and response, every retry, and every error a call rejects with. Events carry no credential. `details` has the
 * call's `operationId` and `platform`.
 */
export interface ScraperHooks extends SendHooks {
  onError?: ((event: ErrorEvent) => void) | undefined;
}

const names = ["onRequest", "onResponse", "onRetry", "onError"] as const;

/** One hooks object from several (each called in order), or `undefined` when none has a hook. */
export function combineHooks(list: readonly ScraperHooks[]): ScraperHooks | undefined {
  const combined: Record<string, (event: never) => void> = {};
  for (const name of names) {
    const each = list.map((hooks) => (hooks as Record<string, unknown>)[name]).filter((hook): hook is NonNullable<typeof hook> => typeof hook === "function");
    if (each.length === 1) combined[name] = each[0] as (event: never) => void;
    else if (each.length > 1)
      combined[name] = (event: never) => {
        for (const hook of each) (hook as (event: never) => void)(event);
      };
  }
  return Object.keys(combined).length === 0 ? undefined : (combined as ScraperHooks);
}
