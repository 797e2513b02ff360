import { checkApiKey, checkBaseUrl, checkNumber as checkNumberWith, env, isBrowser, resolveLimits } from "@content-scraper/runtime";
import { ScraperInputError } from "./errors.js";
import type { Logger } from "./logger.js";
import { silentLogger } from "./logger.js";
import { apiKey, type OperationId, rateLimit, retryBackoff } from "./rules.js";

/**
 * Checks one response body against the description: `validateResponses` from `@content-scraper/client/validate`, or
 * a function of your own with the same shape.
 */
export type ResponseValidator = (
  operationId: OperationId,
  status: number,
  body: unknown,
) => { valid: boolean; errors?: ReadonlyArray<{ path: string; message: string; keyword: string }> | undefined };

/** The options of `createScraperClient`. Each is checked at construction; an unusable one throws `ScraperInputError` naming it. */
export interface ScraperClientOptions {
  /** A scraper key (`scrape_live_…`). Defaults to the `SCRAPER_API_KEY` environment variable. */
  apiKey?: string | undefined;
  /** The scraper base address, ending in `/api/v1`. Defaults to `SCRAPER_BASE_URL`. */
  baseUrl?: string | undefined;
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
   * The largest response body read, in bytes (default 16 MiB): the declared `content-length` before reading and the
   * decoded bytes while reading, so a compression bomb stops early. A larger one throws `ScraperResponseTooLargeError`.
   */
  maxResponseBytes?: number | undefined;
  /** Client-side pacing: one token bucket shared by all calls (default 120 per minute, the description's), or `false`. */
  rateLimit?: { requestsPerMinute: number } | false | undefined;
  /**
   * Checks every response body against the description: pass `validateResponses` from
   * `@content-scraper/client/validate` (which brings `@content-scraper/validators`). Off by default, so that a client
   * without it loads and bundles no validator.
   */
  validateResponses?: ResponseValidator | false | undefined;
  fetch?: typeof fetch | undefined;
  /** Allow construction in a browser. The key would be exposed to every visitor: don't. */
  dangerouslyAllowBrowser?: boolean | undefined;
  logger?: Logger | undefined;
}

export interface ResolvedOptions {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number | undefined;
  retry: { maxRetries: number; baseDelayMs: number; maxDelayMs: number };
  maxRetryWaitMs: number;
  maxResponseBytes: number;
  rateLimit: { requestsPerMinute: number; burstSeconds: number } | false;
  validateResponses: ResponseValidator | undefined;
  fetch: typeof fetch;
  logger: Logger;
}

const inputError = (field: string, message: string) => new ScraperInputError(field, message);

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
  if (isBrowser() && !options.dangerouslyAllowBrowser) {
    throw new ScraperInputError(
      "dangerouslyAllowBrowser",
      "The scraper client runs on a backend only: in a browser every visitor could read your scraper key. " +
        "Call the API from your server; pass dangerouslyAllowBrowser: true only if you accept that risk.",
    );
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== "function") throw new ScraperInputError("fetch", "fetch is not a function and no global fetch exists.");
  if (options.logger !== undefined && (typeof options.logger !== "object" || options.logger === null)) {
    throw new ScraperInputError("logger", "logger must be an object with debug/info/warn/error methods.");
  }
  const limit = options.rateLimit ?? { requestsPerMinute: rateLimit.requestsPerMinute };
  return {
    apiKey: checkKey(options.apiKey ?? env("SCRAPER_API_KEY")),
    baseUrl: checkBaseUrl("baseUrl", options.baseUrl ?? env("SCRAPER_BASE_URL"), { example: "https://<host>/api/v1", envVar: "SCRAPER_BASE_URL" }, inputError),
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
            requestsPerMinute: checkNumber("rateLimit.requestsPerMinute", limit.requestsPerMinute, rateLimit.requestsPerMinute, { positive: true }),
            burstSeconds: rateLimit.burstSeconds,
          },
    validateResponses: checkValidator(options.validateResponses),
    fetch: fetchImpl,
    logger: options.logger ?? silentLogger,
  };
}
