import { createHash } from "node:crypto";
import { BoundedMap } from "./bounded.js";
import type { SandboxClock } from "./control/clock.js";
import type { SurfaceResponse } from "./http.js";
import { stateLimits } from "./limits.js";

// Idempotent writes, one rule for every surface that has them. A key is what `Idempotency-Key` carries: absent where the
// write allows it, never empty (an empty header is no key, and is refused on every write alike rather than stored
// here and called missing there). A replay with the same key and body answers the stored response; the same key with
// another body is a conflict; keys are kept for the description's `x-idempotency-retention-seconds` on the sandbox clock.

/** How an operation takes its key: `idempotencyKey` of the operation table. */
export interface KeyRules {
  required: boolean;
  minLength?: number;
  maxLength?: number;
}

export type KeyCheck = { ok: true; key: string | undefined } | { ok: false; message: string };

/** The key a write carries, or why it is refused. */
export function checkIdempotencyKey(rules: KeyRules, header: string | undefined): KeyCheck {
  if (header === undefined) return rules.required ? { ok: false, message: "This write requires an Idempotency-Key header." } : { ok: true, key: undefined };
  if (header.trim() === "") {
    const absent = rules.required ? "this write requires one" : "send a key, or no header at all";
    return { ok: false, message: `The Idempotency-Key header is empty: ${absent}.` };
  }
  const { minLength, maxLength } = rules;
  if ((minLength !== undefined && header.length < minLength) || (maxLength !== undefined && header.length > maxLength)) {
    return { ok: false, message: `The Idempotency-Key must be ${minLength ?? 1} to ${maxLength ?? "any number of"} characters.` };
  }
  return { ok: true, key: header };
}

type Stored = { credential: string; fingerprint: string; storedAt: number; response: SurfaceResponse };
export type Replay = { kind: "replay"; response: SurfaceResponse } | { kind: "conflict" } | undefined;

/** Why a keyed write is refused when the store is full: the sandbox's own limit, said as such. */
export const idempotencyFull = `The sandbox's idempotent writes fill the ${stateLimits.idempotency / 1024 / 1024} MB it keeps for them, none of them expired (a sandbox limit, not the service's): retry after Retry-After, when the oldest expires, or reset the sandbox.`;

/**
 * The stored answers of keyed writes, per credential, operation and key. Bounded (`stateLimits.idempotency`): a record
 * is forgotten early only once expired, so that no write it guards can happen twice; a full store refuses new keys.
 */
export class IdempotencyStore {
  readonly #stored = new BoundedMap<Stored>(stateLimits.idempotency);
  constructor(
    readonly retentionMs: number,
    readonly clock: SandboxClock,
  ) {}

  static fingerprint(body: Buffer | undefined): string {
    return createHash("sha256")
      .update(body ?? Buffer.alloc(0))
      .digest("hex");
  }

  /** What an earlier write with this key says about this one: replay it, refuse it, or nothing (a new key). */
  find(slot: string, fingerprint: string): Replay {
    const previous = this.#stored.get(slot);
    if (!previous) return undefined;
    if (this.#expired(previous)) {
      this.#stored.delete(slot);
      return undefined;
    }
    return previous.fingerprint === fingerprint ? { kind: "replay", response: previous.response } : { kind: "conflict" };
  }

  #expired(stored: Stored): boolean {
    return this.clock.now() - stored.storedAt >= this.retentionMs;
  }

  /** The record stored longest ago (records are stored in time order), with its slot. */
  #oldest(): { slot: string; stored: Stored } | undefined {
    const slot = this.#stored.oldest();
    const stored = slot === undefined ? undefined : this.#stored.get(slot);
    return slot === undefined || !stored ? undefined : { slot, stored };
  }

  /** Stores a keyed write's answer; false, storing nothing, when the store is full of records not yet expired. */
  store(slot: string, credential: string, fingerprint: string, response: SurfaceResponse): boolean {
    const expiredOldest = () => {
      const oldest = this.#oldest();
      return oldest && this.#expired(oldest.stored) ? oldest.slot : undefined;
    };
    return this.#stored.set(slot, { credential, fingerprint, storedAt: this.clock.now(), response }, expiredOldest);
  }

  /** Whole seconds until the oldest record expires (at least 1): when a full store takes a new key again. */
  secondsUntilRoom(): number {
    const stored = this.#oldest()?.stored;
    return Math.max(1, Math.ceil(((stored?.storedAt ?? 0) + this.retentionMs - this.clock.now()) / 1000));
  }

  /** Forgets one credential's keys, or every key. */
  reset(credential?: string): void {
    if (credential === undefined) this.#stored.clear();
    else for (const [slot, stored] of this.#stored.entries()) if (stored.credential === credential) this.#stored.delete(slot);
  }
}
