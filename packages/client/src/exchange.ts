import { countHeader, type Outgoing, retryAfterMs, type SendConfig, type SendErrors, send } from "@content-scraper/runtime";
import { ScraperApiError, ScraperConnectionError, ScraperRedirectError, ScraperResponseTooLargeError, ScraperTimeoutError } from "./errors.js";
import type { ResolvedOptions } from "./options.js";
import type { TokenBucket } from "./rate-limiter.js";
import { apiKey, backoffDelay, classify, defaultTimeoutMs, isErrorCode, isOperationId, operation, type OperationRules, operationForPath } from "./rules.js";

export type { Outgoing };

/** What every exchange of a client shares: the key, the base URL, the client's timeout, and its one send config. */
export interface ExchangeConfig {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number | undefined;
  send: SendConfig;
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

/** The operation a call is named after (`send` names calls by operationId, or `METHOD /path` outside the table). */
const rulesOf = (name: string): OperationRules | undefined => (isOperationId(name) ? operation(name) : undefined);

/** The scraper's errors for what happens on the way: each names the operation, none carries the key. */
const scraperErrors: SendErrors = {
  timeout: (call, timeoutMs) => new ScraperTimeoutError(rulesOf(call.name)?.operationId, timeoutMs),
  connection: (call, cause) => new ScraperConnectionError(`${call.name}: the connection failed or the response was cut off`, { cause }),
  redirect: (call, refusal) => new ScraperRedirectError(call.name, refusal),
  tooLarge: (call, tooLarge, response) => new ScraperResponseTooLargeError(call.name, response.status, tooLarge),
};

/**
 * How a scraper client sends, built once per client: the key's pacing, and the description's retry rules
 * (refunded errors with backoff, rate limits and busy refusals after exactly `Retry-After`, within `maxRetryWaitMs`).
 */
export function scraperSendConfig(options: ResolvedOptions, bucket: TokenBucket | null): SendConfig {
  const { retry } = options;
  return {
    fetch: options.fetch,
    logger: options.logger,
    label: "scraper",
    maxRetries: retry.maxRetries,
    maxRetryWaitMs: options.maxRetryWaitMs,
    maxResponseBytes: options.maxResponseBytes,
    beforeAttempt: bucket ? (signal) => bucket.take(signal) : undefined,
    afterResponse: bucket ? (response) => bucket.correct(countHeader(response.headers, "x-scraper-ratelimit-remaining")) : undefined,
    retryDelay: ({ response, text }, attempt, call) => {
      const rules = rulesOf(call.name);
      const error = apiError({ rules, response, text });
      if (classify(rules, response.status, error.code).retry === "never") return undefined;
      const delayMs = error.retryAfterMs ?? backoffDelay(attempt, retry.baseDelayMs, retry.maxDelayMs);
      return { delayMs, summary: error.code, details: { code: error.code, requestId: error.requestId } };
    },
    // Other calls wait out a 429 too, but only for a wait that is taken: a refused one would hold them past the limit.
    beforeRetry: bucket
      ? ({ response }, { delayMs }) => {
          if (response.status === 429) bucket.pauseFor(delayMs);
        }
      : undefined,
    errors: scraperErrors,
  };
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
    creditsCharged: countHeader(response.headers, "x-scraper-credits-charged"),
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
 * description says to retry. Billed errors and other 4xx come back at once. Timeouts and broken connections are not
 * retried: the service may have run (and billed) the request. The loop itself is the runtime's `send`, shared with
 * the other clients of the SDK, with its redirect policy and body limit.
 */
export async function exchange(config: ExchangeConfig, outgoing: Outgoing, options: ExchangeOptions = {}): Promise<Exchange> {
  const path = outgoing.url.startsWith(config.baseUrl) ? outgoing.url.slice(config.baseUrl.length) : new URL(outgoing.url).pathname;
  const rules = operationForPath(path);
  const given = outgoing.headers instanceof Headers ? Object.fromEntries(outgoing.headers) : outgoing.headers;
  const { response, text } = await send(config.send, { ...outgoing, headers: { ...given, [apiKey.name]: config.apiKey } }, {
    name: rules?.operationId ?? `${outgoing.method} ${path}`,
    timeoutMs: options.timeoutMs ?? config.timeoutMs ?? rules?.timeoutMs ?? defaultTimeoutMs,
    signal: options.signal,
    logDetails: { operationId: rules?.operationId },
  });
  return { rules, response, text };
}
