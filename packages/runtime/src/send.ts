import { deadline } from "./deadline.js";
import { retryAfterMs } from "./headers.js";
import type { Logger } from "./logger.js";
import { sleep } from "./sleep.js";

/** What to send: the parts of a request, so that every attempt sends the same bytes without re-reading a stream. */
export interface Outgoing {
  url: string;
  method: string;
  headers?: Headers | Record<string, string> | undefined;
  body?: string | ArrayBuffer | undefined;
  /** Fetch's redirect mode; fetch's default (`follow`) when absent. */
  redirect?: RequestRedirect | undefined;
}

/** A complete answer: the response and its whole body, read within the timeout. */
export interface Answer {
  response: Response;
  text: string;
  /** How many requests were sent for this call (1 when the first answer was kept). */
  attempts: number;
}

/** Retry this answer after `delayMs`; `summary` and `details` go into the warning that is logged. */
export interface RetryDecision {
  delayMs: number;
  summary?: string | undefined;
  details?: Record<string, unknown> | undefined;
}

/** How a client sends: the parts of the loop that differ between surfaces. */
export interface SendConfig {
  fetch: typeof fetch;
  logger: Logger;
  /** The prefix of log lines (`scraper`, `platform`, …). */
  label: string;
  /** Retries after the first attempt, at most. */
  maxRetries: number;
  /** Headers computed for every attempt, e.g. a freshly obtained access token. They are never logged. */
  headers?: (() => Record<string, string> | Promise<Record<string, string>>) | undefined;
  /** Runs before every attempt, e.g. to wait for a token of a client-side rate limiter. */
  beforeAttempt?: ((signal: AbortSignal | undefined) => Promise<void>) | undefined;
  /** Sees every response, e.g. to align a rate limiter with the service's remaining count. */
  afterResponse?: ((response: Response) => void) | undefined;
  /** For a non-2xx answer with retries left: how long to wait before sending again, or `undefined` to return it. */
  retryDelay(answer: Answer, attempt: number): RetryDecision | undefined;
  /** The error thrown when the timeout runs out. */
  timeoutError(name: string, timeoutMs: number): Error;
  /** The error thrown when the connection fails or the body is cut off. */
  connectionError(name: string, cause: unknown): Error;
}

/** One call of `send`: its name in logs and errors, its timeout, signal and per-attempt headers. */
export interface SendOptions {
  /** What the call is called in logs and errors (an operationId, or `METHOD /path`). */
  name: string;
  /** Per attempt; `undefined` for none. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Added to every log line's details (never a credential). */
  logDetails?: Record<string, unknown> | undefined;
}

/**
 * Sends a request and retries it as `retryDelay` says, sending the same method, URL, headers and body each time.
 * Each attempt reads the whole body within the timeout. Timeouts and broken connections are not retried: the
 * service may have acted on the request. The caller's abort rejects with the signal's reason, also while waiting.
 */
export async function send(config: SendConfig, outgoing: Outgoing, options: SendOptions): Promise<Answer> {
  const { name, timeoutMs, signal: userSignal } = options;
  // A plain object: cheaper for fetch than a Headers instance on the hot path.
  const given = outgoing.headers instanceof Headers ? Object.fromEntries(outgoing.headers) : (outgoing.headers ?? {});

  for (let attempt = 0; ; attempt++) {
    await config.beforeAttempt?.(userSignal);
    config.logger.debug?.(`${config.label}: ${name} attempt ${attempt + 1}`, { ...options.logDetails, attempt: attempt + 1 });
    const headers = config.headers ? { ...given, ...(await config.headers()) } : given;
    const timer = deadline(timeoutMs, userSignal);
    let response: Response;
    let text: string;
    try {
      const init: RequestInit = { method: outgoing.method, headers, body: outgoing.body, signal: timer.signal };
      if (outgoing.redirect) init.redirect = outgoing.redirect;
      response = await config.fetch(outgoing.url, init);
      text = await response.text();
    } catch (error) {
      if (userSignal?.aborted) throw userSignal.reason;
      if (timer.timedOut()) throw config.timeoutError(name, timeoutMs as number);
      throw config.connectionError(name, error);
    } finally {
      timer.clear();
    }
    config.afterResponse?.(response);
    const answer = { response, text, attempts: attempt + 1 };
    if (response.ok || attempt >= config.maxRetries) return answer;
    const decision = config.retryDelay(answer, attempt);
    if (!decision) return answer;
    config.logger.warn?.(
      `${config.label}: ${name} answered ${response.status}${decision.summary ? ` ${decision.summary}` : ""}; retry ${attempt + 1} of ${config.maxRetries} in ${Math.round(decision.delayMs)} ms`,
      { ...options.logDetails, status: response.status, ...decision.details, delayMs: decision.delayMs },
    );
    await sleep(decision.delayMs, userSignal);
  }
}

/**
 * The retry rule of the surfaces that document only this one: a 429 is sent again after exactly its `Retry-After`;
 * a 429 without a readable `Retry-After`, and every other answer, is returned as it is.
 */
export function retryOn429({ response }: Answer): RetryDecision | undefined {
  if (response.status !== 429) return undefined;
  const delayMs = retryAfterMs(response.headers);
  return delayMs === undefined ? undefined : { delayMs };
}
