import { type Answer, checkNumber, describeConnectionFailure, type Outgoing, type Redactor, type SendConfig, type SendErrors, send, type Transport, transportSendConfig } from "@content-scraper/runtime";
import {
  PlatformAbortError,
  PlatformConnectionError,
  PlatformInputError,
  PlatformRedirectError,
  PlatformResponseError,
  PlatformResponseTooLargeError,
  PlatformTimeoutError,
} from "./errors.js";

/** Per-call options of every method. */
export interface RequestOptions {
  signal?: AbortSignal | undefined;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number | undefined;
}

export const inputError = (field: string, message: string) => new PlatformInputError(field, message);

/** A 2xx whose body is not JSON. */
export function notJson(name: string, answer: Pick<Answer, "response">, idempotencyKey?: string): PlatformResponseError {
  return new PlatformResponseError(`${name} answered ${answer.response.status} with a body that is not JSON`, name, answer.response.status, idempotencyKey);
}

/** The package's errors for what happens on the way; a write's carry its `Idempotency-Key`. */
const platformErrors: SendErrors = {
  timeout: (call, timeoutMs, inFlight) => new PlatformTimeoutError(call.name, timeoutMs, call.idempotencyKey, inFlight),
  connection: (call, cause, inFlight) => new PlatformConnectionError(describeConnectionFailure(call.name, inFlight), call.idempotencyKey, inFlight, { cause }),
  redirect: (call, refusal) => new PlatformRedirectError(call.name, refusal, call.idempotencyKey),
  tooLarge: (call, tooLarge, response) => new PlatformResponseTooLargeError(call.name, response.status, tooLarge, call.idempotencyKey),
  aborted: (call, reason, inFlight) => new PlatformAbortError(call.name, inFlight, call.idempotencyKey, undefined, { cause: reason }),
};

/** How one client of the package sends (built once per client): its transport, the default timeout of its calls, its redactor. */
export interface Sender {
  config: SendConfig;
  timeoutMs: number | undefined;
  redactor: Redactor;
}

/**
 * A sender with the package's one retry rule: a 429 waits exactly `Retry-After` (within `maxRetryWaitMs`); nothing else
 * is retried. `redactor` knows the client's credentials: its log lines and errors hold none.
 */
export function sender(transport: Transport, label: string, redactor: Redactor): Sender {
  return { config: transportSendConfig(transport, label, platformErrors, redactor), timeoutMs: transport.timeoutMs, redactor };
}

export interface Call extends RequestOptions {
  /** The operationId, or `METHOD /path`. */
  name: string;
  /** Credentials for each attempt (never logged): they replace any header of the same name. */
  authHeaders?: Readonly<Record<string, string>> | (() => Record<string, string> | Promise<Record<string, string>>) | undefined;
  idempotencyKey?: string | undefined;
}

/** Sends one call through the runtime's pipeline. */
export function transportSend({ config, timeoutMs }: Sender, outgoing: Outgoing, call: Call): Promise<Answer> {
  checkNumber("timeoutMs", call.timeoutMs, 0, { positive: true }, inputError);
  return send(config, outgoing, {
    name: call.name,
    timeoutMs: call.timeoutMs ?? timeoutMs,
    signal: call.signal,
    idempotencyKey: call.idempotencyKey,
    authHeaders: call.authHeaders,
    logDetails: { operation: call.name },
  });
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
