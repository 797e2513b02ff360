import type { ErrorCodeRules, OperationBehaviour, OperationRules as ClientRules } from "@content-scraper/codegen";
import { apiKeys, type ErrorCode, errorCodes, focusedOperations, operationBehaviour, operations, rateLimit, requestBodyLimit } from "../generated/scraper.operations.js";

// The service's rules, as codegen read them from the description's vendor extensions. The sandbox's behaviour comes
// from here; the few choices the reference leaves open are named below, each marked as the sandbox's.

export type { ErrorCode };
export type Billing = "billed" | "free" | "refunded";

/** What the sandbox plays of an operation: the rules a client acts on, and the service's own behaviour. */
export type OperationRules = ClientRules & OperationBehaviour;

/** Every operation the description documents: codegen writes the focused ones apart, for the clients' bundles. */
export const scraperOperations = { ...operations, ...focusedOperations };

const behaviours: Readonly<Record<string, OperationBehaviour>> = operationBehaviour;
const table: Readonly<Record<string, OperationRules>> = Object.fromEntries(
  Object.entries(scraperOperations).map(([id, rules]) => [id, { ...rules, ...behaviours[id] }]),
);
const codes: Readonly<Record<string, ErrorCodeRules>> = errorCodes;
const byPath = new Map(Object.values(table).map((rules) => [rules.path, rules]));

export const scraperKey = apiKeys.ScraperApiKey;
export const defaultRateLimit = rateLimit;

/** The platforms whose namespaces (`/scrape/<platform>/…`) the description documents. */
export const platforms: ReadonlySet<string> = new Set(Object.values(table).flatMap((rules) => (rules.platform ? [rules.platform] : [])));

export function operationAt(path: string): OperationRules | undefined {
  return byPath.get(path);
}

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(codes, value);
}

/** The largest request body, from the description's `x-request-body-limit`. */
export const maxBodyBytes: number = requestBodyLimit;

/** Statuses the reference does not show, which the sandbox still has to pick. The description's `default` response covers them. */
const sandboxStatuses: Partial<Record<ErrorCode, number>> = {
  // The reference does not show this status; the sandbox answers 503 (service unavailable, with Retry-After).
  SCRAPER_SYSTEM_BUSY: 503,
  // The reference does not show this status; the sandbox answers 404 (an unknown path).
  ENDPOINT_NOT_FOUND: 404,
  // The reference splits the refunded codes over 500, 502 and 504 without saying how; the description's 500 example
  // carries INTERNAL_ERROR, so the sandbox's own failures answer 500.
  INTERNAL_ERROR: 500,
};

/** The status the sandbox answers a code with that it raises itself (not one Prism serves from an example). */
export function statusOf(code: ErrorCode): number {
  const status = codes[code]?.status;
  const chosen = typeof status === "number" ? status : sandboxStatuses[code];
  if (chosen === undefined) throw new Error(`the sandbox has no status for ${code}: serve it from a documented example`);
  return chosen;
}

/**
 * Billing of an answer: the operation's `x-billing` for the status, else its `default` ("by-code": the code's billing).
 * Where neither says (the reference does not show the billing of ENDPOINT_NOT_FOUND), the sandbox charges nothing.
 */
export function billingOf(rules: OperationRules | undefined, status: number, code: string | undefined): Billing {
  const byStatus = rules?.billing[String(status)] ?? rules?.billing.default;
  const billing = byStatus === undefined || byStatus === "by-code" ? (isErrorCode(code) ? codes[code]?.billing : null) : byStatus;
  return billing ?? "free";
}

/** Credits an answer costs: the operation's standard rate when billed (a sandbox account pays the standard rate). */
export function chargeOf(rules: OperationRules | undefined, billing: Billing): number {
  return billing === "billed" ? (rules?.credits?.standard ?? 0) : 0;
}

/** How long the platform typically takes: the operation's own duration, else that of its platform's other operations. */
export function typicalDurationMs(rules: OperationRules): { min: number; max: number } | undefined {
  return rules.typicalDurationMs ?? Object.values(table).find((other) => other.platform === rules.platform && other.typicalDurationMs)?.typicalDurationMs;
}
