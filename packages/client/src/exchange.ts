import {
  bodyExcerpt,
  countHeader,
  describeConnectionFailure,
  optionalString,
  type Outgoing,
  type Pacer,
  PacingTimeout,
  parseJson,
  type Redactor,
  retryAfterMs,
  type SendConfig,
  type SendErrors,
  type SendHooks,
  type SendOptions,
} from "@content-scraper/runtime";
import {
  ScraperAbortError,
  ScraperApiError,
  ScraperConnectionError,
  ScraperRedirectError,
  ScraperResponseTooLargeError,
  ScraperStoreError,
  ScraperTimeoutError,
} from "./errors.js";
import type { Ledger } from "./ledger.js";
import type { ResolvedOptions } from "./options.js";
import { backoffDelay, classify, defaultTimeoutMs, isErrorCode, type OperationRules } from "./rules.js";

export type { Outgoing };

/** What every exchange of a client shares: the credential, the call defaults and its one send config. */
export interface ExchangeConfig {
  auth: Readonly<Record<string, string>>;
  defaults: CallDefaults;
  send: SendConfig<ScraperCall>;
}

/** What a call may change, and a derived client (`withOptions`) sets as its defaults. */
export interface CallDefaults {
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
  /** Sent with every request (never a credential header: the client sends its own key). */
  headers?: Readonly<Record<string, string>> | undefined;
}

export interface ExchangeOptions extends CallDefaults {
  signal?: AbortSignal | undefined;
}

/** A complete answer: the response and its whole body, read within the timeout. */
export interface Exchange {
  rules: OperationRules | undefined;
  response: Response;
  text: string;
  /** Requests sent for the call, retries included. */
  attempts: number;
  /** From the call's start to the answer's last byte, pacing and retry waits included. */
  elapsedMs: number;
}

/** A scraper call as `send` hands it back to the config's retry rule and errors: with its operation's rules (`undefined` outside the description). */
export interface ScraperCall extends SendOptions {
  rules: OperationRules | undefined;
}

/** The scraper's errors for what happens on the way: each names the operation, none carries the key. */
const scraperErrors: SendErrors<ScraperCall> = {
  timeout: (call, timeoutMs, inFlight) => new ScraperTimeoutError(call.rules?.operationId, timeoutMs, inFlight),
  connection: (call, cause, inFlight) => new ScraperConnectionError(describeConnectionFailure(call.name, inFlight), inFlight, { cause }),
  redirect: (call, refusal) => new ScraperRedirectError(call.name, refusal),
  tooLarge: (call, tooLarge, response) => new ScraperResponseTooLargeError(call.name, response.status, tooLarge),
  aborted: (call, reason, inFlight) => new ScraperAbortError(call.name, inFlight, undefined, { cause: reason }),
};

/**
 * How a scraper client sends, built once per client family (a client and those `withOptions` derives from it): the
 * key's pacing, the description's retry rules (refunded errors with backoff, rate limits and busy refusals after
 * exactly `Retry-After`, within `maxRetryWaitMs`), the ledger's counts and the caller's hooks.
 */
export function scraperSendConfig(options: ResolvedOptions, pacer: Pacer | null, ledger: Ledger, hooks: SendHooks | undefined, redactor: Redactor): SendConfig<ScraperCall> {
  const { retry } = options;
  return {
    fetch: options.fetch,
    logger: options.logger,
    redactor,
    label: "scraper",
    maxRetries: retry.maxRetries,
    maxRetryWaitMs: options.maxRetryWaitMs,
    maxResponseBytes: options.maxResponseBytes,
    beforeAttempt: (signal, call, until) => {
      ledger.attempts++;
      if (!pacer) return undefined;
      return pacer.wait(signal, until).then(
        (waited) => {
          ledger.pacingWaitMs += waited;
          return waited;
        },
        (error: unknown) => {
          // The caller's abort and the deadline are `send`'s to report; anything else is the store's failure.
          throw signal?.aborted || error instanceof PacingTimeout ? error : new ScraperStoreError("rateLimit", call.name, error);
        },
      );
    },
    afterResponse: pacer ? (response, ageMs) => void pacer.correct(countHeader(response.headers, "x-scraper-ratelimit-remaining"), ageMs) : undefined,
    retryDelay: ({ response, text }, attempt, { rules }) => {
      const error = apiError({ rules, response, text, attempts: 0, elapsedMs: 0 }, redactor);
      if (!error.retryable) return undefined;
      const delayMs = error.retryAfterMs ?? backoffDelay(attempt, retry.baseDelayMs, retry.maxDelayMs);
      return { delayMs, summary: error.code, details: { code: error.code, requestId: error.requestId } };
    },
    beforeRetry: ({ response }, { delayMs }) => {
      ledger.retries++;
      // Every call sharing the bucket waits out a 429, but only for a wait that is taken: a refused one would hold them past the limit.
      if (pacer && response.status === 429) void pacer.pause(delayMs);
    },
    hooks,
    sleep: options.sleep,
    errors: scraperErrors,
  };
}

/** The service's error body, when the answer is one: an object whose `error` is a string. */
export function errorBody(text: string): Record<string, unknown> | undefined {
  const body = parseJson(text);
  return body && typeof body === "object" && typeof (body as { error?: unknown }).error === "string" ? (body as Record<string, unknown>) : undefined;
}

/**
 * The typed error for an error answer, carrying what the service said and what the description says about it. Only
 * the service's own error envelope (with its `request_id`) can be billed: a framework's 404 or a proxy's page cannot.
 * A message quotes the body only as parsed and redacted (`bodyExcerpt`).
 */
export function apiError({ rules, response, text }: Exchange, redactor: Redactor): ScraperApiError {
  const body = errorBody(text);
  const fromService = typeof body?.request_id === "string";
  const gatewayTimeout = response.status === 504 && body === undefined && (response.headers.get("content-type") ?? "").startsWith("text/plain");
  const code = isErrorCode(body?.error) ? body.error : gatewayTimeout ? "GATEWAY_TIMEOUT" : undefined;
  const { billed, retry } = classify(rules, response.status, code);
  const excerpt = bodyExcerpt(text, redactor);
  return new ScraperApiError({
    operationId: rules?.operationId ?? "request",
    status: response.status,
    code,
    message: optionalString(body?.message) ?? (excerpt ? `HTTP ${response.status}: ${excerpt}` : `HTTP ${response.status} with an empty body`),
    requestId: optionalString(body?.request_id),
    creditsCharged: fromService ? countHeader(response.headers, "x-scraper-credits-charged") : undefined,
    billed: billed && fromService,
    retryable: retry !== "never",
    retryAfterMs: retryAfterMs(response.headers),
    field: optionalString(body?.field),
    reason: optionalString(body?.reason),
    platform: optionalString(body?.platform),
    identifier: optionalString(body?.identifier),
  });
}

/**
 * What log lines and hook events say of a call: its operation, platform, and a number that tells the calls of a client
 * apart (its ledger's count of requests). Every event of the call carries this same object.
 */
export type CallDetails = {
  operationId: string | undefined;
  platform: string | undefined;
  callId: number;
};

export function callDetails(rules: OperationRules | undefined, callId: number): CallDetails {
  return { operationId: rules?.operationId, platform: rules && "platform" in rules ? rules.platform : undefined, callId };
}

/** A call's name in logs, events and errors: its operationId, or `METHOD /path` outside the description. */
export function callName(outgoing: Outgoing, rules: OperationRules | undefined): string {
  return rules?.operationId ?? `${outgoing.method} ${new URL(outgoing.url).pathname}`;
}

/**
 * What `send` needs for a call: the request with the caller's headers (never a key of theirs), and the call's name,
 * timeout (the call's, the client's, else the operation's recommended one from the description), retries, signal,
 * key and log details. The loop itself is the runtime's `send`, shared with the other clients of the SDK: pacing,
 * retries by the description's rules, the redirect policy, the body limit and the hooks.
 */
export function prepare(
  config: ExchangeConfig,
  outgoing: Outgoing,
  rules: OperationRules | undefined,
  options: ExchangeOptions,
  details: CallDetails,
): { request: Outgoing; call: ScraperCall } {
  const given = outgoing.headers instanceof Headers ? Object.fromEntries(outgoing.headers) : outgoing.headers;
  const extra = options.headers ?? config.defaults.headers;
  return {
    request: extra ? { ...outgoing, headers: { ...extra, ...given } } : outgoing,
    call: {
      name: callName(outgoing, rules),
      rules,
      timeoutMs: options.timeoutMs ?? config.defaults.timeoutMs ?? rules?.timeoutMs ?? defaultTimeoutMs,
      maxRetries: options.maxRetries ?? config.defaults.maxRetries,
      signal: options.signal,
      authHeaders: config.auth,
      logDetails: details,
    },
  };
}
