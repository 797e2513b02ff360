import type { BucketLimit, BudgetState, CreditBudgetStore, CreditReservation, RateLimitStore } from "./stores.js";

interface Bucket {
  tokens: number;
  updatedAt: number;
  pausedUntil: number;
  /** The refill waits for the service's first count (see `holdMs`). */
  held: boolean;
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
      bucket = { tokens: capacityOf(limit), updatedAt: at, pausedUntil: 0, held: false };
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
        return 0;
      }
      return Math.ceil(bucket.updatedAt - now() + ((1 - bucket.tokens) * 60_000) / limit.requestsPerMinute);
    },
    correct(key, limit, remaining, ageMs = 0) {
      const bucket = refilled(key, limit);
      // The service counted when the request reached it: about half its age ago (its way there).
      const since = Math.max(0, ageMs) / 2;
      // The service's bucket has been refilling since it admitted that request, and so does this one.
      if (bucket.held) {
        bucket.updatedAt = Math.min(bucket.updatedAt, now() - since);
        bucket.held = false;
      }
      const counted = remaining + (since * limit.requestsPerMinute) / 60_000;
      bucket.tokens = Math.min(bucket.tokens, Math.max(0, Math.min(capacityOf(limit), counted)));
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

/** Credit budgets in this process's memory, one per key: the default store of a client's `budget`. */
export function memoryBudgetStore(): CreditBudgetStore {
  const budgets = new Map<string, { spent: number; reservations: Map<string, number> }>();
  let next = 0;
  const budget = (key: string) => {
    let found = budgets.get(key);
    if (!found) {
      found = { spent: 0, reservations: new Map() };
      budgets.set(key, found);
    }
    return found;
  };
  const reserved = (key: string) => {
    let total = 0;
    for (const credits of budget(key).reservations.values()) total += credits;
    return total;
  };
  return {
    reserve(key, credits, maxCredits): CreditReservation | undefined {
      const found = budget(key);
      if (found.spent + reserved(key) + credits > maxCredits) return undefined;
      const id = String(++next);
      found.reservations.set(id, credits);
      return { id, credits };
    },
    settle(key, reservation, charged) {
      const found = budget(key);
      if (found.reservations.delete(reservation.id)) found.spent += charged;
    },
    state(key): BudgetState {
      return { spent: budget(key).spent, reserved: reserved(key) };
    },
  };
}
