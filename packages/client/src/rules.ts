import { apiKeys, defaultTimeoutMs, errorCodes, operations, rateLimit, retryBackoff } from "./generated/scraper.operations.js";
import type { ErrorCode, OperationId } from "./generated/scraper.operations.js";

// The service's rules as codegen read them from the description's vendor extensions (spec/extensions.md).
// Everything the client knows about billing, retries, timeouts, pacing and paging comes through here.

export type { ErrorCode, OperationId };
export type OperationRules = (typeof operations)[OperationId];
export type RetryClass = "backoff" | "retry-after" | "never";

export { defaultTimeoutMs, rateLimit, retryBackoff };
export const apiKey = apiKeys.ScraperApiKey;

export function isOperationId(value: string): value is OperationId {
  return Object.hasOwn(operations, value);
}

export function operation(id: OperationId): OperationRules {
  return operations[id];
}

/** The platforms that have `<platform><Resource>` (e.g. `Audience`: shortvideo, photoshare). */
export function platformsWith(resource: string): string[] {
  return Object.values(operations).flatMap((rules) =>
    "platform" in rules && rules.operationId === `${rules.platform}${resource}` ? [rules.platform] : [],
  );
}

/** A platform's focused operations: the ones the description tags `Focused: <platform>`. */
export function focusedOperations(platform: string): Array<OperationRules & { resource: string }> {
  return Object.values(operations).filter(
    (rules): rules is OperationRules & { resource: string } => rules.tag === `Focused: ${platform}` && "resource" in rules,
  );
}

let byPath: Map<string, OperationRules> | undefined;

/** The operation a request path (relative to the base URL) addresses, if it is a documented one. */
export function operationForPath(path: string): OperationRules | undefined {
  byPath ??= new Map(Object.values(operations).map((rules) => [rules.path, rules]));
  return byPath.get(path);
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
