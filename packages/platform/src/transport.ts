import {
  type Answer,
  checkBaseUrl,
  checkNumber,
  type Logger,
  type Outgoing,
  retryOn429,
  send,
  silentLogger,
} from "@content-scraper/runtime";
import { PlatformConnectionError, PlatformInputError, PlatformTimeoutError } from "./errors.js";

/** The transport options every client of this package takes. */
export interface TransportOptions {
  /** The API's base address: `https://<host>/api/oauth/v1` (OAuth) or `https://<host>/api/v1` (key-based). */
  baseUrl: string;
  /**
   * Per attempt. The reference shows no timeout for these surfaces, so there is none by default (pass a `signal` or
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

/** Per-call options of every method. */
export interface RequestOptions {
  signal?: AbortSignal | undefined;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number | undefined;
}

export interface Transport {
  baseUrl: string;
  fetch: typeof fetch;
  timeoutMs: number | undefined;
  maxRetries: number;
  logger: Logger;
}

export const inputError = (field: string, message: string) => new PlatformInputError(field, message);

export function resolveTransport(options: TransportOptions, example: string): Transport {
  if (typeof options !== "object" || options === null) throw inputError("options", "options must be an object.");
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== "function") throw inputError("fetch", "fetch is not a function and no global fetch exists.");
  if (options.logger !== undefined && (typeof options.logger !== "object" || options.logger === null)) {
    throw inputError("logger", "logger must be an object with debug/info/warn/error methods.");
  }
  return {
    baseUrl: checkBaseUrl("baseUrl", options.baseUrl, { example }, inputError),
    fetch: fetchImpl,
    timeoutMs: options.timeoutMs === undefined ? undefined : checkNumber("timeoutMs", options.timeoutMs, 0, { positive: true }, inputError),
    maxRetries: checkNumber("retry.maxRetries", options.retry?.maxRetries, 4, { integer: true }, inputError),
    logger: options.logger ?? silentLogger,
  };
}

export interface Call extends RequestOptions {
  /** The operationId, or `METHOD /path`. */
  name: string;
  /** The log prefix. */
  label: string;
  /** Credentials for each attempt (never logged). */
  headers?: (() => Record<string, string> | Promise<Record<string, string>>) | undefined;
  idempotencyKey?: string | undefined;
}

/** Sends with the package's one retry rule: a 429 waits exactly `Retry-After`; nothing else is retried. */
export function transportSend(transport: Transport, outgoing: Outgoing, call: Call): Promise<Answer> {
  checkNumber("timeoutMs", call.timeoutMs, 0, { positive: true }, inputError);
  return send(
    {
      fetch: transport.fetch,
      logger: transport.logger,
      label: call.label,
      maxRetries: transport.maxRetries,
      headers: call.headers,
      retryDelay: retryOn429,
      timeoutError: (name, timeoutMs) => new PlatformTimeoutError(name, timeoutMs, call.idempotencyKey),
      connectionError: (name, cause) =>
        new PlatformConnectionError(`${name}: the connection failed or the response was cut off`, call.idempotencyKey, { cause }),
    },
    outgoing,
    { name: call.name, timeoutMs: call.timeoutMs ?? transport.timeoutMs, signal: call.signal, logDetails: { operation: call.name } },
  );
}

/** JSON request headers and body; no body (and no content-type) when `body` is undefined. */
export function jsonOutgoing(method: string, url: string, body: unknown, headers: Record<string, string> = {}): Outgoing {
  const base = { accept: "application/json", ...headers };
  return body === undefined ? { url, method, headers: base } : { url, method, headers: { ...base, "content-type": "application/json" }, body: JSON.stringify(body) };
}

/** `{name}` templates of the description's paths, to find the operation a request addresses. */
export function operationMatcher<Rules extends { method: string; path: string }>(operations: Readonly<Record<string, Rules>>) {
  const entries = Object.values(operations).map((rules) => ({
    rules,
    pattern: new RegExp(`^${rules.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }));
  return (method: string, path: string): Rules | undefined =>
    entries.find((entry) => entry.rules.method === method.toUpperCase() && entry.pattern.test(path))?.rules;
}
