import { randomUUID } from "node:crypto";
import { type PlatformClient, PlatformConnectionError, PlatformTimeoutError } from "@content-scraper/platform";

/**
 * Creates an invoice at most once. Choose its Idempotency-Key when you decide to create it, store
 * the key with the draft, and send it on every attempt: the same key with the same body returns the
 * stored response instead of a second invoice (keys are kept about 24 hours).
 */
export async function createInvoiceOnce(platform: PlatformClient, invoice: Record<string, unknown>, key: string = randomUUID()) {
  for (let attempt = 1; ; attempt++) {
    try {
      // The client itself waits out a 429's Retry-After and resends with the same key.
      return await platform.createInvoice(invoice, { idempotencyKey: key });
    } catch (error) {
      // A lost connection or a timeout leaves the outcome unknown: replaying with the key is safe.
      // Anything else is an answer; idempotency_conflict (409) means the body changed under the key.
      const unknown = error instanceof PlatformConnectionError || error instanceof PlatformTimeoutError;
      if (!unknown || attempt === 3) throw error;
    }
  }
}
