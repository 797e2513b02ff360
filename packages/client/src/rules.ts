import { apiKeys, defaultTimeoutMs, errorCodes, type focusedOperations, operations, rateLimit, retryBackoff } from "./generated/scraper.operations.js";
import type { ErrorCode, OperationId } from "./generated/scraper.operations.js";

// The service's rules as codegen read them from the description's vendor extensions (spec/extensions.md).
// Everything the client knows about billing, retries, timeouts, pacing and paging comes through here.

export type { ErrorCode, OperationId };
/** Every operation's rules: the normalized ones (`operations`) and the focused ones (`focusedOperations`). */
type OperationTable = typeof operations & typeof focusedOperations;
export type OperationRules = OperationTable[OperationId];
/** The operations behind the client's own methods: every one but the focused ones (`@content-scraper/client/focused`). */
export type NormalizedId = keyof typeof operations;
export type RetryClass = "backoff" | "retry-after" | "never";

export { defaultTimeoutMs, rateLimit, retryBackoff };
export const apiKey = apiKeys.ScraperApiKey;

export function isNormalizedId(value: string): value is NormalizedId {
  return Object.hasOwn(operations, value);
}

export function operation(id: NormalizedId): OperationRules {
  return operations[id];
}

/** The platforms that have `<platform><Resource>` (e.g. `Audience`: shortvideo, photoshare). */
export function platformsWith(resource: string): string[] {
  return Object.values(operations).flatMap((rules) =>
    "platform" in rules && rules.operationId === `${rules.platform}${resource}` ? [rules.platform] : [],
  );
}

/** Whether the operation's price is the account's rate ("Rates … may differ per account") rather than a fixed one. */
export const accountRated = (rules: OperationRules | undefined): boolean => rules !== undefined && "credits" in rules && rules.credits.accountRate === true;

/** What one call of an operation is expected to cost: its description price, or the account's `rate` where that applies and is more. */
export function expectedPrice(rules: OperationRules, rate: number | undefined): number {
  const standard = "credits" in rules ? rules.credits.standard : 0;
  return accountRated(rules) ? Math.max(standard, rate ?? 0) : standard;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(errorCodes, value);
}

/** Billing outcome of a documented status (exact, else `default`) for an operation. */
function statusBilling(rules: OperationRules | undefined, status: number): string | undefined {
  const billing = rules?.billing as Record<string, string> | undefined;
  return billing?.[String(status)] ?? billing?.default;
}

/**
 * How an error answer is billed and whether to retry it. A known error code decides (the `ErrorCode` table);
 * without one (a non-JSON body such as the gateway's bare 504) the status's documented billing does.
 */
export function classify(rules: OperationRules | undefined, status: number, code: string | undefined): { billed: boolean; retry: RetryClass } {
  if (isErrorCode(code)) {
    const entry = errorCodes[code];
    return { billed: entry.billing === "billed", retry: entry.retry ?? "never" };
  }
  const billing = statusBilling(rules, status);
  if (status === 429) return { billed: false, retry: "retry-after" };
  // A 5xx without a code and without a documented billing of its own (a proxy's 503 page) is no answer of the service's:
  // never billed, and retried like the service's own 5xx, which are all refunded (reference 7.1, rule 2: only 4xx are deterministic).
  if (status >= 500 && billing !== "billed" && billing !== "free") return { billed: false, retry: "backoff" };
  return { billed: billing === "billed", retry: billing === "refunded" ? "backoff" : "never" };
}

/**
 * The wait before retry number `attempt` (0-based) of a `backoff` error: the description's schedule scaled by
 * `baseDelayMs` (its first step), doubling past its end, capped at `maxDelayMs`, plus up to 25% jitter so that
 * clients that failed together do not retry together.
 */
export function backoffDelay(attempt: number, baseDelayMs: number, maxDelayMs: number, random: () => number = Math.random): number {
  const schedule: readonly number[] = retryBackoff.scheduleSeconds;
  const first = schedule[0] ?? 1;
  const last = schedule.at(-1) ?? first;
  const seconds = schedule[attempt] ?? last * 2 ** (attempt - schedule.length + 1);
  const delay = (seconds / first) * baseDelayMs;
  const jitter = retryBackoff.jitter ? 1 + 0.25 * random() : 1;
  return Math.min(maxDelayMs, delay * jitter);
}
