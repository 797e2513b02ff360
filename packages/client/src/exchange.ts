import { ScraperApiError, ScraperConnectionError, ScraperTimeoutError } from "./errors.js";
import type { Logger } from "./logger.js";
import { integerHeader, retryAfterMs } from "./meta.js";
import type { TokenBucket } from "./rate-limiter.js";
import { apiKey, backoffDelay, classify, isErrorCode, type OperationRules, operationForPath } from "./rules.js";
import { sleep } from "./sleep.js";

export interface ExchangeConfig {
  apiKey: string;
  baseUrl: string;
  fetch: typeof fetch;
  timeoutMs: number | undefined;
  retry: { maxRetries: number; baseDelayMs: number; maxDelayMs: number };
  bucket: TokenBucket | null;
  logger: Logger;
}

export interface ExchangeOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
}

/** A complete answer: the response and its whole body, read within the timeout. */
export interface Exchange {
  rules: OperationRules | undefined;
  response: Response;
  text: string;
}

/** The service's error body, when the answer is one. */
export function errorBody(text: string): Record<string, unknown> | undefined {
  try {
    const body: unknown = JSON.parse(text);
    return body && typeof body === "object" && "error" in body ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const optionalString = (value: unknown) => (typeof value === "string" ? value : undefined);

/** The typed error for an error answer, carrying what the service said and what the description says about it. */
export function apiError({ rules, response, text }: Exchange): ScraperApiError {
  const body = errorBody(text);
  const code = isErrorCode(body?.error) ? body.error : undefined;
  const { billed, retry } = classify(rules, response.status, code);
  const snippet = text.trim().slice(0, 200);
  return new ScraperApiError({
    operationId: rules?.operationId ?? "request",
    status: response.status,
    code,
    message:
      optionalString(body?.message) ??
      `${rules?.operationId ?? "request"} failed with HTTP ${response.status}${snippet ? `: ${snippet}` : " and an empty body"}`,
    requestId: optionalString(body?.request_id),
    creditsCharged: integerHeader(response.headers, "x-scraper-credits-charged"),
    billed,
    retryable: retry !== "never",
    retryAfterMs: retryAfterMs(response.headers),
    field: optionalString(body?.field),
    reason: optionalString(body?.reason),
    platform: optionalString(body?.platform),
    identifier: optionalString(body?.identifier),
  });
}

/** What to send: the parts of a request, so that each attempt sends the same bytes without re-reading a stream. */
export interface Outgoing {
  url: string;
  method: string;
  headers?: Headers | Record<string, string> | undefined;
  body?: string | ArrayBuffer | undefined;
}

/** Aborts on the caller's signal or after `timeoutMs`, whichever comes first; `timedOut` tells which. */
function deadline(timeoutMs: number, userSignal: AbortSignal | undefined) {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(userSignal?.reason);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  userSignal?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    clear() {
      clearTimeout(timer);
      userSignal?.removeEventListener("abort", onAbort);
    },
  };
}

/**
 * Sends a request with the key, under the client's pacing and the operation's timeout, and retries what the
 * description says to retry: refunded errors with backoff, rate limits and busy refusals after exactly
 * `Retry-After`. Billed errors and other 4xx come back at once. Timeouts and broken connections are not retried:
 * the service may have run (and billed) the request.
 */
export async function exchange(config: ExchangeConfig, outgoing: Outgoing, options: ExchangeOptions = {}): Promise<Exchange> {
  const path = outgoing.url.startsWith(config.baseUrl) ? outgoing.url.slice(config.baseUrl.length) : new URL(outgoing.url).pathname;
  const rules = operationForPath(path);
  const name = rules?.operationId ?? `${outgoing.method} ${path}`;
  const timeoutMs = options.timeoutMs ?? config.timeoutMs ?? rules?.timeoutMs ?? 60_000;
  const userSignal = options.signal;
  // A plain object: cheaper for fetch than a Headers instance on the hot path.
  const given = outgoing.headers instanceof Headers ? Object.fromEntries(outgoing.headers) : outgoing.headers;
  const headers = { ...given, [apiKey.name]: config.apiKey };

  for (let attempt = 0; ; attempt++) {
    await config.bucket?.take(userSignal);
    config.logger.debug?.(`scraper: ${name} attempt ${attempt + 1}`, { operationId: rules?.operationId, attempt: attempt + 1 });
    const timer = deadline(timeoutMs, userSignal);
    let response: Response;
    let text: string;
    try {
      response = await config.fetch(outgoing.url, { method: outgoing.method, headers, body: outgoing.body, signal: timer.signal });
      text = await response.text();
    } catch (error) {
      if (userSignal?.aborted) throw userSignal.reason;
      if (timer.timedOut()) throw new ScraperTimeoutError(rules?.operationId, timeoutMs);
      throw new ScraperConnectionError(`${name}: the connection failed or the response was cut off`, { cause: error });
    } finally {
      timer.clear();
    }
    config.bucket?.correct(integerHeader(response.headers, "x-scraper-ratelimit-remaining"));
    const result = { rules, response, text };
    if (response.ok) return result;

    const error = apiError(result);
    const { retry } = classify(rules, response.status, error.code);
    if (retry === "never" || attempt >= config.retry.maxRetries) return result;
    const delay = error.retryAfterMs ?? backoffDelay(attempt, config.retry.baseDelayMs, config.retry.maxDelayMs);
    if (response.status === 429) config.bucket?.pauseFor(delay);
    config.logger.warn?.(
      `scraper: ${name} answered ${response.status}${error.code ? ` ${error.code}` : ""}; retry ${attempt + 1} of ${config.retry.maxRetries} in ${Math.round(delay)} ms`,
      { operationId: rules?.operationId, status: response.status, code: error.code, requestId: error.requestId, delayMs: delay },
    );
    await sleep(delay, userSignal);
  }
}
