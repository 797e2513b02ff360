import { integerHeader, type Logger, type Outgoing, retryAfterMs, send } from "@content-scraper/runtime";
import { ScraperApiError, ScraperConnectionError, ScraperTimeoutError } from "./errors.js";
import type { TokenBucket } from "./rate-limiter.js";
import { apiKey, backoffDelay, classify, defaultTimeoutMs, isErrorCode, type OperationRules, operationForPath } from "./rules.js";

export type { Outgoing };

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

/**
 * Sends a request with the key, under the client's pacing and the operation's timeout, and retries what the
 * description says to retry: refunded errors with backoff, rate limits and busy refusals after exactly
 * `Retry-After`. Billed errors and other 4xx come back at once. Timeouts and broken connections are not retried:
 * the service may have run (and billed) the request. The loop itself is the runtime's `send`, shared with the
 * other clients of the SDK.
 */
export async function exchange(config: ExchangeConfig, outgoing: Outgoing, options: ExchangeOptions = {}): Promise<Exchange> {
  const path = outgoing.url.startsWith(config.baseUrl) ? outgoing.url.slice(config.baseUrl.length) : new URL(outgoing.url).pathname;
  const rules = operationForPath(path);
  const given = outgoing.headers instanceof Headers ? Object.fromEntries(outgoing.headers) : outgoing.headers;
  const { bucket } = config;
  const { response, text } = await send(
    {
      fetch: config.fetch,
      logger: config.logger,
      label: "scraper",
      maxRetries: config.retry.maxRetries,
      beforeAttempt: bucket ? (signal) => bucket.take(signal) : undefined,
      afterResponse: bucket ? (response) => bucket.correct(integerHeader(response.headers, "x-scraper-ratelimit-remaining")) : undefined,
      retryDelay: ({ response, text }, attempt) => {
        const error = apiError({ rules, response, text });
        if (classify(rules, response.status, error.code).retry === "never") return undefined;
        const delayMs = error.retryAfterMs ?? backoffDelay(attempt, config.retry.baseDelayMs, config.retry.maxDelayMs);
        if (response.status === 429) bucket?.pauseFor(delayMs);
        return { delayMs, summary: error.code, details: { code: error.code, requestId: error.requestId } };
      },
      timeoutError: (_name, timeoutMs) => new ScraperTimeoutError(rules?.operationId, timeoutMs),
      connectionError: (name, cause) => new ScraperConnectionError(`${name}: the connection failed or the response was cut off`, { cause }),
    },
    { ...outgoing, headers: { ...given, [apiKey.name]: config.apiKey } },
    {
      name: rules?.operationId ?? `${outgoing.method} ${path}`,
      timeoutMs: options.timeoutMs ?? config.timeoutMs ?? rules?.timeoutMs ?? defaultTimeoutMs,
      signal: options.signal,
      logDetails: { operationId: rules?.operationId },
    },
  );
  return { rules, response, text };
}
