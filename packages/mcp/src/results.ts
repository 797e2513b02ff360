import { ScraperAbortError, ScraperApiError, ScraperBudgetError, ScraperConnectionError, ScraperError, ScraperInputError } from "@content-scraper/client";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Allowance } from "./allowance.js";
import { firstBackoffMs } from "./catalog.js";
import { McpInputError } from "./errors.js";

/**
 * A tool's answer: the structured content, and the same as JSON text for clients that read text only. An answer that
 * holds a credential (a server that echoed the key, in any encoding) is redacted in both by `redact`.
 */
export function toolResult(structured: Record<string, unknown>, redact: (text: string) => string, isError = false): CallToolResult {
  const json = JSON.stringify(structured);
  const text = redact(json);
  const structuredContent = text === json ? structured : (JSON.parse(text) as Record<string, unknown>);
  return { content: [{ type: "text", text }], structuredContent, ...(isError ? { isError: true } : {}) };
}

const defined = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

/**
 * What a failed call tells the agent: what happened and what it can do. A refusal of the allowance says what is left; an
 * error answer carries the service's code, whether it was billed, and when to try again (`retryAfterMs`: the answer's
 * `Retry-After`, else for a refunded failure the first step of the description's backoff).
 */
export function failure(error: unknown, allowance: Allowance | undefined): Record<string, unknown> {
  if (error instanceof ScraperBudgetError) {
    const left = allowance?.left ?? Math.max(0, error.budget.maxCredits - error.budget.spent - error.budget.reserved);
    const message = `${error.operationId} was not sent: it costs ${error.budget.needed} credit(s), and the allowance has ${left} left.`;
    return { kind: "allowance", operationId: error.operationId, message, needed: error.budget.needed, left };
  }
  if (error instanceof ScraperApiError) {
    const retryAfterMs = error.retryAfterMs ?? (error.retryable ? firstBackoffMs : undefined);
    return defined({
      kind: "api",
      operationId: error.operationId,
      status: error.status,
      code: error.code,
      message: error.serviceMessage,
      requestId: error.requestId,
      billed: error.billed,
      creditsCharged: error.creditsCharged,
      retryable: error.retryable,
      retryAfterMs,
      field: error.field,
      reason: error.reason,
      platform: error.platform,
      identifier: error.identifier,
    });
  }
  if (error instanceof McpInputError || error instanceof ScraperInputError) return { kind: "input", field: error.field, message: error.message };
  if (error instanceof ScraperConnectionError || error instanceof ScraperAbortError) {
    // A request still out may have been billed; one that never left (a refused connection) was not, and can be sent again.
    return defined({ kind: error.name, message: error.message, inFlight: error.inFlight, billed: error.inFlight ? "unknown" : false, retryable: !error.inFlight });
  }
  if (error instanceof ScraperError) return defined({ kind: error.name, message: error.message, status: error.status, requestId: error.requestId });
  return { kind: "internal", message: `the server failed: ${error instanceof Error ? error.message : String(error)}` };
}
