import { type Answer, checkNumber, type Outgoing, retryOn429, send, type Transport } from "@content-scraper/runtime";
import { PlatformConnectionError, PlatformInputError, PlatformTimeoutError } from "./errors.js";

/** Per-call options of every method. */
export interface RequestOptions {
  signal?: AbortSignal | undefined;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number | undefined;
}

export const inputError = (field: string, message: string) => new PlatformInputError(field, message);

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

/** `{name}` templates of the description's paths, to find the operation a request addresses. */
export function operationMatcher<Rules extends { method: string; path: string }>(operations: Readonly<Record<string, Rules>>) {
  const entries = Object.values(operations).map((rules) => ({
    rules,
    pattern: new RegExp(`^${rules.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }));
  return (method: string, path: string): Rules | undefined =>
    entries.find((entry) => entry.rules.method === method.toUpperCase() && entry.pattern.test(path))?.rules;
}
