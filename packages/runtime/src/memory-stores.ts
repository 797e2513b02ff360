import type { BucketLimit, BudgetState, BudgetWait, CreditBudgetStore, CreditReservation, RateLimitStore } from "./stores.js";

interface Bucket {
  tokens: number;
  updatedAt: number;
  pausedUntil: number;
  /** The refill waits for the service's first count (see `holdMs`). */
  held: boolean;
  /** When each token of the last `keepTakesMs` was taken, oldest first, from `first` on (see `servedCount`). */
  takes: number[];
  first: number;
}

/**
 * How long a token taken from a full bucket holds the refill when no count of the service's comes. The service's
 * bucket is full too, and stays full (its refill wasted) until that request reaches it, while this one would already
 * be refilling: the difference, the first request's latency times the rate, lets one request too many through when the
 * burst runs out. So the refill resumes at the service's first count (`correct`), or this long after the take. The
 * Redis store does the same.
 */
export const holdMs = 1000;

const capacityOf = (limit: BucketLimit) => Math.max(1, (limit.requestsPerMinute * limit.burstSeconds) / 60);

/** How long the times of the tokens taken are kept: longer than any answer takes (the service's ceiling is about 120 s). */
export const keepTakesMs = 300_000;

/** The longest way a request takes to reach the service, which its answer's age includes: at most half that age. */
export const wayThereMs = 100;

/**
 * What the service's bucket holds now, from a count it sent: `remaining` when it admitted a request that left `ageMs`
 * ago (it reached the service its way there later), plus what the service refilled since, less the tokens taken after
 * the service counted (`takenAfter`): those requests reach it later. Not those taken on the way there: requests sent
 * together reach the service in any order, and one counted twice would throttle the client below the rate for good
 * (a correction only ever lowers the bucket). Answers that figure, and when the service counted (a held refill resumes
 * from then).
 */
function servedCount(remaining: number, ageMs: number, takenAfter: (countedAt: number) => number, rate: number, at: number): { tokens: number; countedAt: number } {
  const age = Math.max(0, ageMs);
  const countedAt = at - age + Math.min(age / 2, wayThereMs);
  return { tokens: remaining + ((at - countedAt) * rate) / 60_000 - takenAfter(countedAt), countedAt };
}

/**
 * Token buckets in this process's memory, one per key: the default store, shared by every client given the same
 * instance. `now` is a monotonic clock in milliseconds.
 */
export function memoryRateLimitStore(now: () => number = () => performance.now()): RateLimitStore {
  const buckets = new Map<string, Bucket>();
  const refilled = (key: string, limit: BucketLimit): Bucket => {
    const at = now();
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = { tokens: capacityOf(limit), updatedAt: at, pausedUntil: 0, held: false, takes: [], first: 0 };
      buckets.set(key, bucket);
    } else if (at > bucket.updatedAt) {
      bucket.tokens = Math.min(capacityOf(limit), bucket.tokens + ((at - bucket.updatedAt) * limit.requestsPerMinute) / 60_000);
      bucket.updatedAt = at;
      bucket.held = false;
    }
    return bucket;
  };
  return {
    take(key, limit) {
      const bucket = refilled(key, limit);
      const paused = bucket.pausedUntil - now();
      if (paused > 0) return Math.ceil(paused);
      if (bucket.tokens >= 1) {
        if (bucket.tokens >= capacityOf(limit)) {
          bucket.updatedAt = now() + holdMs;
          bucket.held = true;
        }
        bucket.tokens -= 1;
        remember(bucket, now());
        return 0;
      }
      return Math.ceil(bucket.updatedAt - now() + ((1 - bucket.tokens) * 60_000) / limit.requestsPerMinute);
    },
    correct(key, limit, remaining, ageMs = 0) {
      const bucket = refilled(key, limit);
      const at = now();
      const served = servedCount(remaining, ageMs, (countedAt) => takenAfter(bucket, countedAt), limit.requestsPerMinute, at);
      // The service's bucket has been refilling since it counted, and so does this one, from then to now.
      if (bucket.held) {
        bucket.updatedAt = Math.min(bucket.updatedAt, served.countedAt);
        bucket.held = false;
        refilled(key, limit);
      }
      bucket.tokens = Math.min(bucket.tokens, Math.max(0, Math.min(capacityOf(limit), served.tokens)));
    },
    pause(key, limit, ms) {
      const bucket = refilled(key, limit);
      const until = now() + Math.max(0, ms);
      bucket.tokens = 0;
      // No refill while paused: the bucket starts filling again when the pause ends.
      bucket.updatedAt = Math.max(bucket.updatedAt, until);
      bucket.pausedUntil = Math.max(bucket.pausedUntil, until);
      bucket.held = false;
    },
  };
}

/** Notes a token taken at `at`, forgetting those older than `keepTakesMs` (compacting now and then, not on every take). */
function remember(bucket: Bucket, at: number): void {
  bucket.takes.push(at);
  while (bucket.first < bucket.takes.length && (bucket.takes[bucket.first] as number) < at - keepTakesMs) bucket.first++;
  if (bucket.first > 1024 && bucket.first * 2 > bucket.takes.length) {
    bucket.takes.splice(0, bucket.first);
    bucket.first = 0;
  }
}

/** How many tokens were taken after `since` (a binary search over the kept times). */
function takenAfter(bucket: Bucket, since: number): number {
  let low = bucket.first;
  let high = bucket.takes.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((bucket.takes[middle] as number) > since) high = middle;
    else low = middle + 1;
  }
  return bucket.takes.length - low;
}

/**
 * Budgets in this process's memory, one per key: what each has spent, its open reservations, and the highest rate it
 * has seen charged for each operation whose price is the account's, with the one call that is finding it out.
 */
export function memoryBudgetStore(): CreditBudgetStore {
  interface Budget {
    spent: number;
    reservations: Map<string, number>;
    rates: Map<string, number>;
    /** The reservation of the call finding out an operation's rate. */
    probes: Map<string, string>;
  }
  const budgets = new Map<string, Budget>();
  let next = 0;
  const budget = (key: string) => {
    let found = budgets.get(key);
    if (!found) {
      found = { spent: 0, reservations: new Map(), rates: new Map(), probes: new Map() };
      budgets.set(key, found);
    }
    return found;
  };
  const reserved = (found: Budget) => {
    let total = 0;
    for (const credits of found.reservations.values()) total += credits;
    return total;
  };
  return {
    reserve(key, credits, maxCredits, rate): CreditReservation | BudgetWait | undefined {
      const found = budget(key);
      const learned = rate && found.rates.get(rate.operation);
      const probing = rate !== undefined && learned === undefined && !rate.known;
      if (probing && found.probes.has(rate.operation)) return { waitMs: probeWaitMs };
      const price = Math.max(credits, learned ?? 0);
      if (found.spent + reserved(found) + price > maxCredits) return undefined;
      const id = String(++next);
      found.reservations.set(id, price);
      if (probing) found.probes.set(rate.operation, id);
      return { id, credits: price, operation: rate?.operation };
    },
    settle(key, reservation, charged, rate) {
      const found = budget(key);
      const { operation } = reservation;
      if (operation !== undefined && found.probes.get(operation) === reservation.id) found.probes.delete(operation);
      if (operation !== undefined && rate !== undefined && rate > 0) found.rates.set(operation, Math.max(rate, found.rates.get(operation) ?? 0));
      if (found.reservations.delete(reservation.id)) found.spent += charged;
    },
    state(key): BudgetState {
      const found = budget(key);
      return { spent: found.spent, reserved: reserved(found) };
    },
  };
}

/** How long a call waits before asking again while another finds out its operation's rate (a shared store polls). */
const probeWaitMs = 50;
