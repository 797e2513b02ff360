import { type CreditBudgetStore, createScraperClient, type Platform, type RateLimitStore, type ScraperClient, ScraperInputError } from "@content-scraper/client";
import { UsageError } from "./usage-error.js";

/** The connection options every command shares: this process's own configuration, never taken from elsewhere. */
export interface ConnectionOptions {
  baseUrl?: string | undefined;
  /** Allow a plain `http://` base address to another machine (the key would cross the network in cleartext). */
  allowInsecureHttp?: boolean | undefined;
  /** Client-side pacing, requests per minute; `undefined` keeps the description's default. */
  requestsPerMinute?: number | undefined;
  /** Retries of a refunded or rate-limited answer before the creator counts as failed; `undefined` keeps the client's. */
  maxRetries?: number | undefined;
  /** Each request's time, from sending to the last byte; `undefined` keeps the description's per-platform timeout. */
  timeoutMs?: number | undefined;
  /** The credits one call costs the account, if known (`createScraperClient`'s `assumeRate`). */
  assumeRate?: number | undefined;
}

export interface ClientStores {
  rateLimit?: RateLimitStore | undefined;
  budget?: CreditBudgetStore | undefined;
  budgetKey?: string | undefined;
}

/**
 * The scraper client, keyed from `SCRAPER_API_KEY` (never an argument: argv is visible to every user of the machine)
 * and addressed by `--base-url` or `SCRAPER_BASE_URL` (checked by the client: no userinfo, https unless loopback or
 * `--allow-insecure-http`).
 */
export function scraperClient(options: ConnectionOptions, maxCredits?: number, stores: ClientStores = {}): ScraperClient {
  const apiKey = process.env.SCRAPER_API_KEY;
  if (!apiKey) throw new UsageError("SCRAPER_API_KEY is not set: export your scraper key (scrape_live_…) in the environment.");
  const baseUrl = options.baseUrl ?? process.env.SCRAPER_BASE_URL;
  if (!baseUrl) throw new UsageError("--base-url is required (or SCRAPER_BASE_URL): the scraper base address, ending in /api/v1.");
  try {
    return createScraperClient({
      apiKey,
      baseUrl,
      allowInsecureHttp: options.allowInsecureHttp,
      rateLimit: { requestsPerMinute: options.requestsPerMinute, store: stores.rateLimit },
      retry: { maxRetries: options.maxRetries },
      timeoutMs: options.timeoutMs,
      assumeRate: options.assumeRate,
      ...(maxCredits === undefined ? {} : { budget: { maxCredits, store: stores.budget, key: stores.budgetKey } }),
    });
  } catch (error) {
    // The client names its options; the command line has flags.
    if (error instanceof ScraperInputError && error.field === "baseUrl") throw new UsageError(error.message.replace(/^baseUrl/, "--base-url").replace("allowInsecureHttp: true", "--allow-insecure-http"));
    throw error;
  }
}

/**
 * Refuses a platform without a posts listing before an export starts (a `ScraperInputError` naming the field), rather
 * than failing every creator: building a walk applies the client's own check and sends nothing.
 */
export function checkPlatform(client: ScraperClient, platform: string): Platform {
  client.walkPages(platform as Platform, "");
  return platform as Platform;
}
