import { ScraperInputError } from "./errors.js";
import type { Logger } from "./logger.js";
import { silentLogger } from "./logger.js";
import { apiKey, rateLimit, retryBackoff } from "./rules.js";

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
  /** Client-side pacing: one token bucket shared by all calls (default 120 per minute, the description's), or `false`. */
  rateLimit?: { requestsPerMinute: number } | false | undefined;
  /** Check every response body against the description (loads `@content-scraper/validators` on first use). */
  validateResponses?: boolean | undefined;
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
  rateLimit: { requestsPerMinute: number; burstSeconds: number } | false;
  validateResponses: boolean;
  fetch: typeof fetch;
  logger: Logger;
}

const env = (name: string): string | undefined => (typeof process === "undefined" ? undefined : process.env?.[name]);

function isBrowser(): boolean {
  const scope = globalThis as { window?: { document?: unknown } };
  return typeof scope.window !== "undefined" && typeof scope.window.document !== "undefined";
}

/** Checks the key's shape without ever putting the key itself into a message. */
function checkKey(key: string | undefined): string {
  const expected = `a scraper key, which starts with ${apiKey.keyPrefix}`;
  if (key === undefined || key.trim() === "") {
    throw new ScraperInputError("apiKey", `apiKey is missing: pass ${expected}, or set SCRAPER_API_KEY.`);
  }
  for (const [prefix, surface] of Object.entries(apiKey.rejectedKeyPrefixes)) {
    if (key.startsWith(prefix)) {
      throw new ScraperInputError("apiKey", `apiKey starts with ${prefix}: that is a ${surface} key. The scraper takes ${expected}.`);
    }
  }
  if (!key.startsWith(apiKey.keyPrefix) || key.length === apiKey.keyPrefix.length) {
    throw new ScraperInputError("apiKey", `apiKey is not a scraper key: the scraper takes ${expected}.`);
  }
  return key;
}

function checkBaseUrl(value: string | undefined): string {
  if (!value) {
    throw new ScraperInputError("baseUrl", "baseUrl is missing: pass the scraper base address (ending in /api/v1), or set SCRAPER_BASE_URL.");
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ScraperInputError("baseUrl", "baseUrl is not an absolute URL (expected e.g. https://<host>/api/v1).");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ScraperInputError("baseUrl", `baseUrl must be an http(s) URL, not ${url.protocol}`);
  }
  return url.href.replace(/\/+$/, "");
}

/** A non-negative (or positive) finite number, or the default. */
export function checkNumber(option: string, value: number | undefined, fallback: number, { positive = false, integer = false } = {}): number {
  if (value === undefined) return fallback;
  const ok = typeof value === "number" && Number.isFinite(value) && (positive ? value > 0 : value >= 0) && (!integer || Number.isInteger(value));
  if (!ok) {
    throw new ScraperInputError(option, `${option} must be a ${positive ? "positive" : "non-negative"} ${integer ? "integer" : "number"}.`);
  }
  return value;
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
    baseUrl: checkBaseUrl(options.baseUrl ?? env("SCRAPER_BASE_URL")),
    timeoutMs: options.timeoutMs === undefined ? undefined : checkNumber("timeoutMs", options.timeoutMs, 0, { positive: true }),
    retry: {
      maxRetries: checkNumber("retry.maxRetries", options.retry?.maxRetries, 4, { integer: true }),
      baseDelayMs: checkNumber("retry.baseDelayMs", options.retry?.baseDelayMs, retryBackoff.scheduleSeconds[0] * 1000),
      maxDelayMs: checkNumber("retry.maxDelayMs", options.retry?.maxDelayMs, retryBackoff.capSeconds * 1000),
    },
    rateLimit:
      limit === false
        ? false
        : {
            requestsPerMinute: checkNumber("rateLimit.requestsPerMinute", limit.requestsPerMinute, rateLimit.requestsPerMinute, { positive: true }),
            burstSeconds: rateLimit.burstSeconds,
          },
    validateResponses: Boolean(options.validateResponses),
    fetch: fetchImpl,
    logger: options.logger ?? silentLogger,
  };
}
