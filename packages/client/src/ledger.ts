import { type BudgetState, type CreditBudgetStore, type CreditReservation, readAmount, StoreReplyError } from "@content-scraper/runtime";
import { ScraperBudgetError, ScraperStoreError } from "./errors.js";

/** A client's running totals, shared with the clients `withOptions` derives from it. */
export interface ScraperUsage {
  /** Credits the service charged (its `meta.credits_charged`, or an error's `X-Scraper-Credits-Charged`). */
  creditsCharged: number;
  /** Calls made: one per method call, page of a walk or `api` request, however many attempts it took. */
  requests: number;
  /** Requests sent, retries included. */
  attempts: number;
  retries: number;
  /** Time spent waiting for the client's pacing before sending. */
  pacingWaitMs: number;
}

export class Ledger implements ScraperUsage {
  creditsCharged = 0;
  requests = 0;
  attempts = 0;
  retries = 0;
  pacingWaitMs = 0;

  /** A copy of the counts (the ledger's only fields), which later calls do not move. */
  snapshot(): ScraperUsage {
    return { ...this };
  }
}

/** What `budgetState()` answers: the budget's limit and its running figures. */
export interface ScraperBudgetState extends BudgetState {
  maxCredits: number;
}

/**
 * A credit budget shared by every call of a client family: each call reserves its operation's price from the
 * description before it is sent, and settles what its answer charged. Spent plus reserved never passes `maxCredits`
 * (an account rate above the standard price is only known from the answer, so it can pass it by that difference).
 */
export class CreditBudget {
  constructor(
    readonly store: CreditBudgetStore,
    readonly key: Promise<string>,
    readonly maxCredits: number,
  ) {}

  /** Reserves `credits` for `operationId`, or throws `ScraperBudgetError` without sending anything. */
  async reserve(operationId: string, credits: number): Promise<CreditReservation> {
    const key = await this.key;
    let reservation: CreditReservation | undefined;
    let state: BudgetState;
    try {
      reservation = checkedReservation(await this.store.reserve(key, credits, this.maxCredits), credits);
      if (reservation) return reservation;
      state = checkedState(await this.store.state(key));
    } catch (error) {
      throw new ScraperStoreError("budget", operationId, error);
    }
    throw new ScraperBudgetError(operationId, { maxCredits: this.maxCredits, spent: state.spent, reserved: state.reserved, needed: credits });
  }

  async settle(reservation: CreditReservation, charged: number): Promise<void> {
    await this.store.settle(await this.key, reservation, charged);
  }

  async state(): Promise<ScraperBudgetState> {
    return { maxCredits: this.maxCredits, ...checkedState(await this.store.state(await this.key)) };
  }
}

/** A store's answer to `reserve`: nothing (refused), or a reservation of the credits asked for; anything else is refused. */
function checkedReservation(reply: unknown, credits: number): CreditReservation | undefined {
  if (reply === undefined) return undefined;
  const reservation = reply as Partial<CreditReservation> | null;
  if (typeof reservation?.id !== "string" || reservation.credits !== credits) throw new StoreReplyError("reserve", reply);
  return reservation as CreditReservation;
}

/** A store's `state`: spent and reserved as non-negative amounts, else a `StoreReplyError` (never a default). */
function checkedState(reply: unknown): BudgetState {
  const state = reply as Partial<BudgetState> | null;
  const spent = readAmount(state?.spent);
  const reserved = readAmount(state?.reserved);
  if (typeof state?.spent !== "number" || typeof state.reserved !== "number" || spent === undefined || reserved === undefined) throw new StoreReplyError("state", reply);
  return { spent, reserved };
}

/**
 * The store key of a credential: a SHA-256 digest, so a shared store (Redis) holds no key and every process with the
 * same key meets on the same bucket and budget.
 */
export async function credentialKey(prefix: string, credential: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(credential));
  const hex = Array.from(new Uint8Array(digest).subarray(0, 16), (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${prefix}:${hex}`;
}
