import { createHash } from "node:crypto";
import type { SandboxClock } from "./control/clock.js";
import type { SurfaceResponse } from "./http.js";
import { remember } from "./surface-kit.js";

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

// Past this many keys the oldest is forgotten first, however young.
const maxStoredKeys = 100_000;

/** The stored answers of keyed writes, per credential, operation and key. */
export class IdempotencyStore {
  readonly #stored = new Map<string, Stored>();
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
    if (this.clock.now() - previous.storedAt >= this.retentionMs) {
      this.#stored.delete(slot);
      return undefined;
    }
    return previous.fingerprint === fingerprint ? { kind: "replay", response: previous.response } : { kind: "conflict" };
  }

  store(slot: string, credential: string, fingerprint: string, response: SurfaceResponse): void {
    remember(this.#stored, slot, { credential, fingerprint, storedAt: this.clock.now(), response }, maxStoredKeys);
  }

  /** Forgets one credential's keys, or every key. */
  reset(credential?: string): void {
    if (credential === undefined) this.#stored.clear();
    else for (const [slot, stored] of this.#stored) if (stored.credential === credential) this.#stored.delete(slot);
  }
}
