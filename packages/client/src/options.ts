import {
  type CreditBudgetStore,
  Redactor,
  checkApiKey,
  checkBaseUrl,
  checkNumber as checkNumberWith,
  env,
  checkBackendOnly,
  type RateLimitStore,
  resolveLimits,
} from "@content-scraper/runtime";
import { inputError, ScraperInputError } from "./errors.js";
import { combineHooks, type ScraperHooks } from "./hooks.js";
import type { Logger } from "./logger.js";
import { silentLogger } from "./logger.js";
import { apiKey, type OperationId, rateLimit, retryBackoff } from "./rules.js";
import type { RequestOptions, WalkOptions } from "./types.js";

/**
 * Checks one response body against the description: `validateResponses` from `@content-scraper/client/validate`, or
 * a function of your own with the same shape.
 */
export type ResponseValidator = (
  operationId: OperationId,
  status: number,
  body: unknown,
) => { valid: boolean; errors?: ReadonlyArray<{ path: string; message: string; keyword: string }> | undefined };

/** A credit budget: its limit, and optionally the store it lives in and its key there. */
export interface BudgetOptions {
  maxCredits: number;
  store?: CreditBudgetStore | undefined;
  key?: string | undefined;
}

/** The options of `createScraperClient`. Each is checked at construction; an unusable one throws `ScraperInputError` naming it. */
export interface ScraperClientOptions {
  /** A scraper key (`scrape_live_…`). Defaults to the `SCRAPER_API_KEY` environment variable. */
  apiKey?: string | undefined;
  /**
   * The scraper base address, ending in `/api/v1`. Defaults to `SCRAPER_BASE_URL`. It must be `https://` (or `http://`
   * to this machine, such as the sandbox) and hold no user or password.
   */
  baseUrl?: string | undefined;
  /** Allow a plain `http://` base address to another machine: the key would cross the network in cleartext. */
  allowInsecureHttp?: boolean | undefined;
  /** Overrides the description's recommended timeout of every operation (60 s; 90 s on videosite and socialnet). */
  timeoutMs?: number | undefined;
  retry?: {
    /** Retries of refunded and rate-limited answers; default 4. */
    maxRetries?: number | undefined;
    /** The first backoff step (default 30 000 ms, the description's); later steps scale with it. */
    baseDelayMs?: number | undefined;
    /** The backoff cap (default 300 000 ms, the description's). */
    maxDelayMs?: number | undefined;
  };
  /**
   * The longest wait before a retry: the documented backoff cap by default (300 000 ms). A
   * `Retry-After` asking for longer is not slept: the call fails at once with a retryable `ScraperApiError` carrying
   * `retryAfterMs`, and you decide when to try again.
   */
  maxRetryWaitMs?: number | undefined;
  /**
   * The largest response body read, in bytes (default 16 MiB): the declared `content-length` before reading, and while
   * reading the decoded bytes (and on Deno, Bun and workerd the compressed bytes on the wire too), so an endless body or
   * a compression bomb stops early. A larger one throws `ScraperResponseTooLargeError`.
   */
  maxResponseBytes?: number | undefined;
  /**
   * Client-side pacing: one token bucket shared by all calls (default 120 per minute, the description's; at least 1), or
   * `false`. A call's wait for a token counts against its timeout.
   * `store` shares the bucket beyond this client: the in-memory default is this client's own; pass one store to several
   * clients, or a Redis store (`@content-scraper/redis-store`) to a fleet of processes. `key` names the bucket in the
   * store (default: a SHA-256 digest of the API key, so clients of one key meet on one bucket).
   */
  rateLimit?: { requestsPerMinute?: number | undefined; store?: RateLimitStore | undefined; key?: string | undefined } | false | undefined;
  /**
   * A credit budget shared by every call and walk of the client (and of the clients `withOptions` derives from it):
   * a call whose price (the description's, 25 for audience) would take spent plus reserved past `maxCredits` is
   * refused before it is sent with `ScraperBudgetError`. `store` and `key` as for `rateLimit`. Where the price is the
   * account's rate (profile, posts, post and the focused lookups: "rates may differ per account"), a call reserves the
   * highest rate the budget has seen charged for its operation (kept in the store, so shared with every process on
   * it), and until an answer shows one, one call of that operation goes out at a time: what is in flight passes
   * `maxCredits` by one call's difference at most.
   */
  budget?: BudgetOptions | undefined;
  /**
   * The credits one call costs your account for the operations priced at the account's rate, if you know it (your
   * dashboard shows it; give the highest if they differ): budgets and walks count each such call at least this much
   * from the first, and need not find it out one call at a time. An answer that charges more still raises it.
   */
  assumeRate?: number | undefined;
  /** Hooks that see every attempt of every call, and every error (one object, or several called in order). */
  hooks?: ScraperHooks | readonly ScraperHooks[] | undefined;
  /**
   * Checks every response body against the description: pass `validateResponses` from
   * `@content-scraper/client/validate` (which brings `@content-scraper/validators`). Off by default, so that a client
   * without it loads and bundles no validator.
   */
  validateResponses?: ResponseValidator | false | undefined;
  fetch?: typeof fetch | undefined;
  /**
   * Waits before a retry (a backoff step or a `Retry-After`): real time by default. A test can run the waits on a
   * sandbox's clock instead: `sleep: (ms) => sandbox.advance(ms / 1000)` retries at once, as if the time had passed.
   */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  /** Allow construction in a browser. The key would be exposed to every visitor: don't. */
  dangerouslyAllowBrowser?: boolean | undefined;
  logger?: Logger | undefined;
}

export interface ResolvedOptions {
  apiKey: string;
  assumeRate: number | undefined;
  /** Knows the key: every error, log line and hook event of the client passes through it. */
  redactor: Redactor;
  baseUrl: string;
  timeoutMs: number | undefined;
  retry: { maxRetries: number; baseDelayMs: number; maxDelayMs: number };
  maxRetryWaitMs: number;
  maxResponseBytes: number;
  rateLimit: { requestsPerMinute: number; burstSeconds: number; store: RateLimitStore | undefined; key: string | undefined } | false;
  budget: { maxCredits: number; store: CreditBudgetStore | undefined; key: string | undefined } | undefined;
  hooks: ScraperHooks | undefined;
  validateResponses: ResponseValidator | undefined;
  fetch: typeof fetch;
  sleep: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  logger: Logger;
}


/** Checks the key's shape without ever putting the key itself into a message. */
function checkKey(key: string | undefined): string {
  const rules = { surface: "scraper", prefixes: [apiKey.keyPrefix], rejectedKeyPrefixes: apiKey.rejectedKeyPrefixes, envVar: "SCRAPER_API_KEY" };
  return checkApiKey(key, rules, inputError).key;
}

/** A non-negative (or positive) finite number, or the default. */
export function checkNumber(option: string, value: number | undefined, fallback: number, flags: { positive?: boolean; integer?: boolean } = {}): number {
  return checkNumberWith(option, value, fallback, flags, inputError);
}

/** The validator is injected, never loaded by the client itself: `true` names where to import it from. */
function checkValidator(validator: unknown): ResponseValidator | undefined {
  if (validator === undefined || validator === false) return undefined;
  if (typeof validator === "function") return validator as ResponseValidator;
  throw new ScraperInputError(
    "validateResponses",
    'validateResponses takes the validator function, not a flag: import { validateResponses } from "@content-scraper/client/validate" and pass createScraperClient({ validateResponses }).',
  );
}

export function resolveOptions(options: ScraperClientOptions = {}): ResolvedOptions {
  if (typeof options !== "object" || options === null) throw new ScraperInputError("options", "options must be an object.");
  checkBackendOnly("scraper client", "your scraper key", options.dangerouslyAllowBrowser, inputError);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== "function") throw new ScraperInputError("fetch", "fetch is not a function and no global fetch exists.");
  if (options.logger !== undefined && (typeof options.logger !== "object" || options.logger === null)) {
    throw new ScraperInputError("logger", "logger must be an object with debug/info/warn/error methods.");
  }
  const limit = options.rateLimit ?? {};
  const key = checkKey(options.apiKey ?? env("SCRAPER_API_KEY"));
  const redactor = new Redactor([key]);
  return {
    apiKey: key,
    redactor,
    baseUrl: checkBaseUrl(
      "baseUrl",
      options.baseUrl ?? env("SCRAPER_BASE_URL"),
      { example: "https://<host>/api/v1", envVar: "SCRAPER_BASE_URL", allowInsecureHttp: options.allowInsecureHttp },
      inputError,
    ),
    timeoutMs: options.timeoutMs === undefined ? undefined : checkNumber("timeoutMs", options.timeoutMs, 0, { positive: true }),
    retry: {
      maxRetries: checkNumber("retry.maxRetries", options.retry?.maxRetries, 4, { integer: true }),
      baseDelayMs: checkNumber("retry.baseDelayMs", options.retry?.baseDelayMs, retryBackoff.scheduleSeconds[0] * 1000),
      maxDelayMs: checkNumber("retry.maxDelayMs", options.retry?.maxDelayMs, retryBackoff.capSeconds * 1000),
    },
    ...resolveLimits(options, retryBackoff.capSeconds * 1000, inputError),
    rateLimit:
      limit === false
        ? false
        : {
            requestsPerMinute: checkRate(limit.requestsPerMinute),
            burstSeconds: rateLimit.burstSeconds,
            store: checkStore("rateLimit.store", limit.store, ["take", "correct", "pause"]),
            key: checkKeyName("rateLimit.key", limit.key),
          },
    budget: resolveBudget(options.budget),
    assumeRate: options.assumeRate === undefined ? undefined : checkNumber("assumeRate", options.assumeRate, 0, { positive: true, integer: true }),
    hooks: resolveHooks(options.hooks),
    validateResponses: checkValidator(options.validateResponses),
    fetch: fetchImpl,
    sleep: checkFunction("sleep", options.sleep),
    logger: redactor.logger(options.logger ?? silentLogger),
  };
}

/**
 * At least one request a minute: a slower bucket would hold a call for longer than any timeout, and below that the
 * value is a slip (`1e-9`), not a plan.
 */
function checkRate(value: number | undefined): number {
  const rate = checkNumber("rateLimit.requestsPerMinute", value, rateLimit.requestsPerMinute, { positive: true });
  if (rate < 1) throw new ScraperInputError("rateLimit.requestsPerMinute", "rateLimit.requestsPerMinute must be at least 1 (or pass rateLimit: false).");
  return rate;
}

function checkStore<Store>(option: string, store: Store | undefined, methods: readonly string[]): Store | undefined {
  if (store === undefined) return undefined;
  const missing = methods.find((method) => typeof (store as Record<string, unknown> | null)?.[method] !== "function");
  if (missing) throw new ScraperInputError(option, `${option} must be a store with ${methods.join(", ")} methods; ${missing} is missing.`);
  return store;
}

function checkFunction<F>(option: string, value: F | undefined): F | undefined {
  if (value !== undefined && typeof value !== "function") throw new ScraperInputError(option, `${option} must be a function.`);
  return value;
}

function checkKeyName(option: string, key: string | undefined): string | undefined {
  if (key !== undefined && (typeof key !== "string" || key === "")) throw new ScraperInputError(option, `${option} must be a non-empty string.`);
  return key;
}

export function resolveBudget(budget: ScraperClientOptions["budget"]): ResolvedOptions["budget"] {
  if (budget === undefined) return undefined;
  if (typeof budget !== "object" || budget === null) throw new ScraperInputError("budget", "budget must be an object: { maxCredits }.");
  if (budget.maxCredits === undefined) throw new ScraperInputError("budget.maxCredits", "budget.maxCredits is missing: the credits the client may spend.");
  return {
    maxCredits: checkNumber("budget.maxCredits", budget.maxCredits, 0, { integer: true }),
    store: checkStore("budget.store", budget.store, ["reserve", "settle", "state"]),
    key: checkKeyName("budget.key", budget.key),
  };
}

function resolveHooks(hooks: ScraperClientOptions["hooks"]): ScraperHooks | undefined {
  if (hooks === undefined) return undefined;
  const list = Array.isArray(hooks) ? hooks : [hooks];
  for (const [index, each] of list.entries()) {
    const field = Array.isArray(hooks) ? `hooks[${index}]` : "hooks";
    if (typeof each !== "object" || each === null) throw new ScraperInputError(field, `${field} must be an object of hook functions.`);
    for (const [name, hook] of Object.entries(each)) {
      if (hook !== undefined && typeof hook !== "function") throw new ScraperInputError(`${field}.${name}`, `${field}.${name} must be a function.`);
    }
  }
  return combineHooks(list as readonly ScraperHooks[]);
}

/** The per-call options, checked: each unusable one is a `ScraperInputError` naming it. */
export function checkCallOptions(options: RequestOptions): void {
  if (typeof options !== "object" || options === null) throw new ScraperInputError("options", "options must be an object of call options.");
  checkNumber("timeoutMs", options.timeoutMs, 0, { positive: true });
  checkNumber("maxRetries", options.maxRetries, 0, { integer: true });
  const { headers } = options;
  if (headers !== undefined && (typeof headers !== "object" || headers === null || Object.values(headers).some((value) => typeof value !== "string"))) {
    throw new ScraperInputError("headers", "headers must be an object of header names to string values.");
  }
  const credential = headers && Object.keys(headers).find((name) => name.toLowerCase() === apiKey.name.toLowerCase());
  if (credential) {
    throw new ScraperInputError(`headers.${credential}`, `headers must not carry ${apiKey.name}: the client sends its own key (create a client for another key).`);
  }
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) throw new ScraperInputError("signal", "signal must be an AbortSignal.");
}

/** The options of each page call of a walk: the walk's, checked, without its limits and starting cursor. */
export function pageCallOptions(options: WalkOptions): RequestOptions {
  checkCallOptions(options);
  const { cursor: _start, resume: _resume, maxPages: _pages, maxCredits: _credits, ...call } = options;
  return call;
}
