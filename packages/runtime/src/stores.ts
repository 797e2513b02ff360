/**
 * The stores behind pacing and budgets. A client keeps its rate-limit bucket and its credit budget in a store, so that
 * clients that share a store share one limit and one budget: the in-memory store (the default) shares them between the
 * clients of one process, a remote store (Redis, in its own package) between processes and machines.
 *
 * Every method may answer synchronously or with a promise: the in-memory store answers synchronously, so a call that
 * needs no wait costs no promise; a remote store answers with promises, computed on its own clock, never the caller's.
 */

/** A token bucket's shape: `requestsPerMinute` refill continuously, up to `burstSeconds` of allowance. */
export interface BucketLimit {
  requestsPerMinute: number;
  burstSeconds: number;
}

/** One shared token bucket per key (for example a hash of the API key, never the key itself). */
export interface RateLimitStore {
  /** Takes one token: `0` when taken, else how many milliseconds to wait before asking again (nothing is taken). */
  take(key: string, limit: BucketLimit): number | Promise<number>;
  /**
   * Aligns the bucket with the service's count: `remaining`, as the service counted when it admitted a request that left
   * `ageMs` ago. Never more tokens than that count, plus what the service refilled since, less the tokens taken after
   * the service counted (they reach it later: `servedCount`); a bucket holding its refill after a
   * take from full (see `holdMs`) refills from then on.
   */
  correct(key: string, limit: BucketLimit, remaining: number, ageMs?: number): void | Promise<void>;
  /** No token for anyone until `ms` from now (a `Retry-After`). */
  pause(key: string, limit: BucketLimit, ms: number): void | Promise<void>;
}

/** A reservation against a budget: settle it once, with what the answer charged (0 when nothing was billed). */
export interface CreditReservation {
  readonly id: string;
  /** What was reserved: the price asked for, or more where the budget knows the account's rate is higher. */
  readonly credits: number;
  /** The operation whose price is the account's rate, when the reservation was made for one (`AccountRate`). */
  readonly operation?: string | undefined;
}

/** What a budget has spent and holds in reservations, in credits. */
export interface BudgetState {
  spent: number;
  reserved: number;
}

/**
 * A call of an operation whose price is the account's rate (the reference: "Rates … may differ per account"). The
 * budget reserves the highest rate it has seen charged for `operation`, and until it has seen one, lets one call of it
 * out at a time: what is in flight passes the limit by at most one call's difference from the price asked for.
 */
export interface AccountRate {
  operation: string;
  /** The caller already knows the rate (it is in the credits asked for): calls need not wait for a first answer. */
  known?: boolean | undefined;
}

/** A call of the same operation is finding out the account's rate: ask again after `waitMs`. */
export interface BudgetWait {
  readonly waitMs: number;
}

/** One shared credit budget per key: spent plus reserved never passes `maxCredits`. */
export interface CreditBudgetStore {
  /**
   * Reserves `credits` (or the account's higher rate for `rate.operation`) before a call is sent; answers `undefined`
   * when spent + reserved + that price > `maxCredits`, or a `BudgetWait` while another call finds out the rate. A store
   * that ignores `rate` still holds the limit for the prices asked for.
   */
  reserve(
    key: string,
    credits: number,
    maxCredits: number,
    rate?: AccountRate,
  ): CreditReservation | BudgetWait | undefined | Promise<CreditReservation | BudgetWait | undefined>;
  /**
   * Replaces a reservation with what was charged. `rate`, when the answer showed one (a billed answer's charge), is what
   * one call of the reservation's operation costs this account: the budget keeps the highest it has seen.
   */
  settle(key: string, reservation: CreditReservation, charged: number, rate?: number): void | Promise<void>;
  /** The budget's running figures. */
  state(key: string): BudgetState | Promise<BudgetState>;
}
