import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { PlatformApiError, platformFetch, type Session } from "./oauth-requests.js";

/**
 * Creates an invoice at most once: one Idempotency-Key per intended invoice, reused on every
 * retry. A replay with the same key and body returns the stored response instead of creating a
 * second invoice; keys are kept about 24 hours.
 */
export async function createInvoice(session: Session, invoice: object) {
  const request = {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
    body: JSON.stringify(invoice),
  };
  for (let attempt = 1; ; attempt++) {
    try {
      return await platformFetch(session, "/invoices", request);
    } catch (error) {
      // A lost connection leaves the outcome unknown, and a 429 did nothing: both are safe to
      // replay with the same key. Other errors are answers: idempotency_conflict (409) means
      // the body changed under the same key.
      const answer = error instanceof PlatformApiError ? error : undefined;
      if (attempt === 3 || (answer && answer.code !== "rate_limited")) throw error;
      await sleep((answer?.retryAfter ?? 1) * 1000);
    }
  }
}
