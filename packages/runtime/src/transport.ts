import { defaultMaxResponseBytes } from "./body.js";
import { checkBaseUrl, checkNumber, type InputErrorFactory } from "./environment.js";
import { type Logger, silentLogger } from "./logger.js";
import type { Redactor } from "./redact.js";
import { type Outgoing, retryOn429, type SendConfig, type SendErrors } from "./send.js";

/** What the clients of the neighbouring surfaces (platform, key-based, connect) take to reach their API. */
export interface TransportOptions {
  /** The API's base address (`https://<host>/api/…`): https, or http to this machine only (see `allowInsecureHttp`). */
  baseUrl: string;
  /** Allow a plain `http://` base address to another machine: the credential would cross the network in cleartext. */
  allowInsecureHttp?: boolean | undefined;
  /**
   * Per attempt, from sending to the last byte of the body (default 60 000 ms: `defaultTransportTimeoutMs`, the SDK's
   * choice, since v1.3.0 documents no timeout for these APIs). A timed-out request is not retried: it may have been
   * acted on.
   */
  timeoutMs?: number | undefined;
  retry?: {
    /** Retries of a 429, each after exactly its `Retry-After`; default 4. Nothing else is retried. */
    maxRetries?: number | undefined;
  };
  /**
   * The longest wait before a retry (default 60 000 ms, the SDK's choice: these surfaces document no cap, and their
   * limits count per minute). A 429 whose `Retry-After` asks for longer fails at once with its typed error, which
   * carries `retryAfterMs`: the caller decides.
   */
  maxRetryWaitMs?: number | undefined;
  /** The largest response body read (default 16 MiB, the SDK's choice: `defaultMaxResponseBytes`). */
  maxResponseBytes?: number | undefined;
  fetch?: typeof fetch | undefined;
  /** Receives request and retry lines; never a token, a key or a secret. */
  logger?: Logger | undefined;
}

/**
 * The SDK's default timeout for the surfaces whose description documents none (the platform APIs, connect, the OAuth
 * endpoints): without one, a server that never finishes its answer would hold a call forever.
 */
export const defaultTransportTimeoutMs = 60_000;

/**
 * The SDK's default `maxRetryWaitMs` for the surfaces whose description documents no backoff cap (the platform APIs,
 * connect, the OAuth endpoints): their rate limits count per minute, so a longer `Retry-After` is left to the caller.
 */
export const defaultMaxRetryWaitMs = 60_000;

/** The limits every client takes, checked: `maxRetryWaitMs` (default `retryWaitFallback`) and `maxResponseBytes`. */
export function resolveLimits(
  options: { maxRetryWaitMs?: number | undefined; maxResponseBytes?: number | undefined },
  retryWaitFallback: number,
  fail: InputErrorFactory,
): { maxRetryWaitMs: number; maxResponseBytes: number } {
  return {
    maxRetryWaitMs: checkNumber("maxRetryWaitMs", options.maxRetryWaitMs, retryWaitFallback, {}, fail),
    maxResponseBytes: checkNumber("maxResponseBytes", options.maxResponseBytes, defaultMaxResponseBytes, { positive: true, integer: true }, fail),
  };
}

/** The checked transport options. */
export interface Transport {
  baseUrl: string;
  fetch: typeof fetch;
  timeoutMs: number;
  maxRetries: number;
  maxRetryWaitMs: number;
  maxResponseBytes: number;
  logger: Logger;
}

/** Checks the transport options, `fail`ing with the option's name; `example` shows the base address expected. */
export function resolveTransport(options: TransportOptions, example: string, fail: InputErrorFactory): Transport {
  if (typeof options !== "object" || options === null) throw fail("options", "options must be an object.");
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== "function") throw fail("fetch", "fetch is not a function and no global fetch exists.");
  if (options.logger !== undefined && (typeof options.logger !== "object" || options.logger === null)) {
    throw fail("logger", "logger must be an object with debug/info/warn/error methods.");
  }
  return {
    baseUrl: checkBaseUrl("baseUrl", options.baseUrl, { example, allowInsecureHttp: options.allowInsecureHttp }, fail),
    fetch: fetchImpl,
    timeoutMs: checkNumber("timeoutMs", options.timeoutMs, defaultTransportTimeoutMs, { positive: true }, fail),
    maxRetries: checkNumber("retry.maxRetries", options.retry?.maxRetries, 4, { integer: true }, fail),
    ...resolveLimits(options, defaultMaxRetryWaitMs, fail),
    logger: options.logger ?? silentLogger,
  };
}

/**
 * The send config of a client of a neighbouring surface, built once per client: its transport's limits, the one
 * retry rule these surfaces document (a 429 after exactly `Retry-After`, within `maxRetryWaitMs`; nothing else), and
 * its redactor over what it logs and lets out.
 */
export function transportSendConfig(transport: Transport, label: string, errors: SendErrors, redactor: Redactor): SendConfig {
  const { fetch, maxRetries, maxRetryWaitMs, maxResponseBytes } = transport;
  return { fetch, logger: redactor.logger(transport.logger), label, maxRetries, maxRetryWaitMs, maxResponseBytes, retryDelay: retryOn429, errors, redactor };
}

/** A JSON request: `accept` and, with a body, `content-type` (which `headers` may override); no body when `body` is undefined. */
export function jsonOutgoing(method: string, url: string, body: unknown, headers: Record<string, string> = {}): Outgoing {
  const base = { accept: "application/json", ...headers };
  return body === undefined ? { url, method, headers: base } : { url, method, headers: { "content-type": "application/json", ...base }, body: JSON.stringify(body) };
}
