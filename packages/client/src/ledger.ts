import { type AccountRate, type BudgetState, type BudgetWait, type CreditBudgetStore, type CreditReservation, readAmount, sleep, StoreReplyError } from "@content-scraper/runtime";
import { ScraperAbortError, ScraperBudgetError, ScraperStoreError } from "./errors.js";

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
 * A credit budget shared by every call of a client family: each call reserves its price before it is sent, and settles
 * what its answer charged. Spent plus reserved never passes `maxCredits`. Where the price is the account's rate
 * (`AccountRate`), the store reserves the highest rate it has seen charged, and lets one call at a time find out an
 * unknown one, so what is in flight passes the limit by one call's difference at most.
 */
export class CreditBudget {
  constructor(
    readonly store: CreditBudgetStore,
    readonly key: Promise<string>,
    readonly maxCredits: number,
  ) {}

  /**
   * Reserves `credits` (or the account's higher rate) for `operationId`, waiting while another call finds out its rate;
   * throws `ScraperBudgetError` without sending anything when it does not fit, or the signal's reason if it aborts.
   */
  async reserve(operationId: string, credits: number, rate?: AccountRate, signal?: AbortSignal): Promise<CreditReservation> {
    const key = await this.key;
    for (;;) {
      let reply: CreditReservation | BudgetWait | undefined;
      let state: BudgetState | undefined;
      try {
        reply = checkedReservation(await this.store.reserve(key, credits, this.maxCredits, rate), credits);
        if (reply === undefined) state = checkedState(await this.store.state(key));
      } catch (error) {
        throw new ScraperStoreError("budget", operationId, error);
      }
      if (state) throw new ScraperBudgetError(operationId, { maxCredits: this.maxCredits, spent: state.spent, reserved: state.reserved, needed: credits });
      if (reply && "id" in reply) return reply;
      try {
        await sleep((reply as BudgetWait).waitMs, signal);
      } catch (error) {
        throw signal?.aborted ? new ScraperAbortError(operationId, false, undefined, { cause: signal.reason }) : error;
      }
    }
  }

  async settle(reservation: CreditReservation, charged: number, rate?: number): Promise<void> {
    await this.store.settle(await this.key, reservation, charged, rate);
  }

  async state(): Promise<ScraperBudgetState> {
    return { maxCredits: this.maxCredits, ...checkedState(await this.store.state(await this.key)) };
  }
}

/**
 * A store's answer to `reserve`: nothing (refused), a wait (another call finds out the rate), or a reservation of at
 * least the credits asked for; anything else is refused.
 */
function checkedReservation(reply: unknown, credits: number): CreditReservation | BudgetWait | undefined {
  if (reply === undefined) return undefined;
  const answer = reply as Partial<CreditReservation & BudgetWait> | null;
  if (typeof answer?.waitMs === "number" && readAmount(answer.waitMs) !== undefined && answer.waitMs <= 60_000) return { waitMs: answer.waitMs };
  if (typeof answer?.id !== "string" || typeof answer.credits !== "number" || readAmount(answer.credits) === undefined || answer.credits < credits) {
    throw new StoreReplyError("reserve", reply);
  }
  return answer as CreditReservation;
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
