import { ContentScraperError } from "./errors.js";
import type { Logger } from "./logger.js";

/** What a credential is replaced with. */
export const redacted = "[redacted]";

// A shorter value is no credential (and replacing it would mangle ordinary words).
const minSecretLength = 4;

/** The forms a credential takes when a server sends it back: as it is, percent-encoded and JSON-escaped. */
const formsOf = (secret: string) => new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]);

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The one redaction of the SDK: it knows every credential a client holds (a key, an access or refresh token, a client
 * secret, a URL's password, a Redis password) and removes each, in any case and in the forms a server may echo it, from
 * whatever the client lets out: the errors it throws (message, stack, every field, the whole `cause` chain), its log
 * lines, its hook events and what the CLI writes. Its credentials sit in private fields: no `util.inspect` shows them.
 */
export class Redactor {
  readonly #secrets = new Set<string>();
  #pattern: RegExp | undefined;

  constructor(secrets: Iterable<string | undefined> = []) {
    this.add(...secrets);
  }

  /** Learns more credentials (a token obtained later, a refreshed one); values too short to be one are ignored. */
  add(...secrets: Array<string | undefined>): this {
    let added = false;
    for (const secret of secrets) {
      if (typeof secret !== "string" || secret.length < minSecretLength) continue;
      for (const form of formsOf(secret)) {
        if (this.#secrets.has(form)) continue;
        this.#secrets.add(form);
        added = true;
      }
    }
    // Longest first, so that a secret containing another is replaced whole.
    if (added) this.#pattern = new RegExp([...this.#secrets].sort((a, b) => b.length - a.length).map(literally).join("|"), "gi");
    return this;
  }

  /** Whether `text` holds a credential. */
  leaks(text: string): boolean {
    if (!this.#pattern) return false;
    this.#pattern.lastIndex = 0;
    return this.#pattern.test(text);
  }

  /** `text` with every credential replaced by `[redacted]`. */
  text(text: string): string {
    return this.#pattern && this.leaks(text) ? text.replace(this.#pattern, redacted) : text;
  }

  /**
   * A copy of `value` with every string redacted, through plain objects, arrays and errors (a value without a credential
   * is returned as it is). For log details and the bodies errors carry.
   */
  value<T>(value: T): T {
    return this.#value(value, new Map()) as T;
  }

  /**
   * The error a client lets out, redacted: one of the SDK's own (`ContentScraperError`) is redacted in place (its
   * message, stack and every field); any other error is returned as it is when it holds no credential, else as a
   * redacted copy (an `Error` with the same name). Either way the whole `cause` chain is redacted.
   */
  error<E>(error: E): E {
    if (!this.#pattern || !(error instanceof Error)) return error;
    return this.#error(error, new Map()) as E;
  }

  /** `work`, with every error it throws redacted (`error`): a client's door. */
  async redacting<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw this.error(error);
    }
  }

  /** The headers, or a copy without the credentials a server echoed in them. */
  headers(headers: Headers): Headers {
    if (!this.#pattern) return headers;
    let copy: Headers | undefined;
    for (const [name, value] of headers) {
      if (!this.leaks(value)) continue;
      copy ??= new Headers(headers);
      copy.set(name, this.text(value));
    }
    return copy ?? headers;
  }

  /** `logger` with every message and detail redacted; a method it lacks stays absent (callers skip building its details). */
  logger(logger: Logger): Logger {
    const wrap = (method: Logger[keyof Logger]) =>
      method && ((message: string, details?: Record<string, unknown>) => method.call(logger, this.text(message), details && this.value(details)));
    return { debug: wrap(logger.debug), info: wrap(logger.info), warn: wrap(logger.warn), error: wrap(logger.error) };
  }

  #value(value: unknown, seen: Map<object, unknown>): unknown {
    if (typeof value === "string") return this.text(value);
    if (typeof value !== "object" || value === null) return value;
    if (seen.has(value)) return seen.get(value);
    if (value instanceof Error) return this.#error(value, seen);
    if (value instanceof Headers) return this.headers(value);
    if (Array.isArray(value)) {
      const copy: unknown[] = [];
      seen.set(value, copy);
      for (const item of value) copy.push(this.#value(item, seen));
      return copy.every((item, index) => item === value[index]) ? value : copy;
    }
    if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
    const copy: Record<string, unknown> = {};
    seen.set(value, copy);
    let changed = false;
    for (const [key, item] of Object.entries(value)) {
      copy[key] = this.#value(item, seen);
      changed ||= copy[key] !== item;
    }
    return changed ? copy : value;
  }

  #error(error: Error, seen: Map<object, unknown>): Error {
    if (seen.has(error)) return seen.get(error) as Error;
    if (error instanceof ContentScraperError) {
      seen.set(error, error);
      for (const key of Reflect.ownKeys(error)) {
        const descriptor = Object.getOwnPropertyDescriptor(error, key);
        if (descriptor && "value" in descriptor && descriptor.writable) (error as unknown as Record<PropertyKey, unknown>)[key] = this.#value(descriptor.value, seen);
      }
      return error;
    }
    if (!this.#holds(error, new Set())) return error;
    const copy = new Error(this.text(error.message));
    seen.set(error, copy);
    copy.name = error.name;
    copy.stack = error.stack === undefined ? undefined : this.text(error.stack);
    if (error.cause !== undefined) copy.cause = this.#value(error.cause, seen);
    return copy;
  }

  /** Whether a foreign error holds a credential anywhere: its message, stack, string fields or cause chain. */
  #holds(value: unknown, visited: Set<unknown>): boolean {
    if (typeof value === "string") return this.leaks(value);
    if (typeof value !== "object" || value === null || visited.has(value)) return false;
    visited.add(value);
    if (value instanceof Error && (this.leaks(value.message) || this.leaks(value.stack ?? "") || this.#holds(value.cause, visited))) return true;
    return Object.values(value).some((item) => this.#holds(item, visited));
  }
}
