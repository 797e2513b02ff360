import { PlatformInputError } from "./errors.js";

/** The methods the reference calls mutating: they take an `Idempotency-Key` on the OAuth API's resource endpoints. */
const mutating = new Set(["POST", "PATCH", "PUT"]);

/** What the codegen table says about an operation's key (`x-idempotency` and the header parameter's schema). */
export interface IdempotencyRules {
  operationId: string;
  idempotency?: "required" | "recommended" | "optional";
  idempotencyKey?: { required: boolean; minLength?: number; maxLength?: number };
}

/**
 * The `Idempotency-Key` to send: the caller's, checked against the description's length limits, else a new UUID;
 * `undefined` for reads and for the protocol endpoints (operations the description gives no `x-idempotency`). A path
 * the description does not list is a resource endpoint, so its writes get a key too. The key is chosen once per call
 * and sent on every retry of it.
 */
export function idempotencyKeyFor(method: string, rules: IdempotencyRules | undefined, given: string | undefined): string | undefined {
  const write = mutating.has(method.toUpperCase());
  if (given !== undefined) {
    if (typeof given !== "string" || given.trim() === "" || /[\r\n]/.test(given)) {
      throw new PlatformInputError("idempotencyKey", "idempotencyKey must be a non-empty string on one line.");
    }
    const limits = rules?.idempotencyKey;
    const min = limits?.minLength ?? 0;
    const max = limits?.maxLength ?? Number.POSITIVE_INFINITY;
    if (given.length < min || given.length > max) {
      const range = Number.isFinite(max) ? `${min} to ${max}` : `at least ${min}`;
      throw new PlatformInputError(
        "idempotencyKey",
        `idempotencyKey must be ${range} characters on ${rules?.operationId}; it has ${given.length}. Nothing was sent.`,
      );
    }
    return given;
  }
  if (!write || (rules !== undefined && rules.idempotency === undefined)) return undefined;
  return crypto.randomUUID();
}
