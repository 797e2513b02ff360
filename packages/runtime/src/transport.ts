import { checkBaseUrl, checkNumber, type InputErrorFactory } from "./environment.js";
import { type Logger, silentLogger } from "./logger.js";
import type { Outgoing } from "./send.js";

/** What the clients of the neighbouring surfaces (platform, key-based, connect) take to reach their API. */
export interface TransportOptions {
  /** The API's base address (`https://<host>/api/…`). */
  baseUrl: string;
  /**
   * Per attempt. v1.3.0 documents no timeout for these APIs, so there is none by default (pass a `signal` or
   * set one). A timed-out request is not retried: it may have been acted on.
   */
  timeoutMs?: number | undefined;
  retry?: {
    /** Retries of a 429, each after exactly its `Retry-After`; default 4. Nothing else is retried. */
    maxRetries?: number | undefined;
  };
  fetch?: typeof fetch | undefined;
  /** Receives request and retry lines; never a token, a key or a secret. */
  logger?: Logger | undefined;
}

/** The checked transport options. */
export interface Transport {
  baseUrl: string;
  fetch: typeof fetch;
  timeoutMs: number | undefined;
  maxRetries: number;
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
    baseUrl: checkBaseUrl("baseUrl", options.baseUrl, { example }, fail),
    fetch: fetchImpl,
    timeoutMs: options.timeoutMs === undefined ? undefined : checkNumber("timeoutMs", options.timeoutMs, 0, { positive: true }, fail),
    maxRetries: checkNumber("retry.maxRetries", options.retry?.maxRetries, 4, { integer: true }, fail),
    logger: options.logger ?? silentLogger,
  };
}

/** A JSON request: `accept` and, with a body, `content-type` (which `headers` may override); no body when `body` is undefined. */
export function jsonOutgoing(method: string, url: string, body: unknown, headers: Record<string, string> = {}): Outgoing {
  const base = { accept: "application/json", ...headers };
  return body === undefined ? { url, method, headers: base } : { url, method, headers: { "content-type": "application/json", ...base }, body: JSON.stringify(body) };
}
