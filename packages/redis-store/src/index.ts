import { checkNumber, Redactor } from "@content-scraper/runtime";
import { Redis } from "ioredis";
import { RedisBudgetStore } from "./budget.js";
import { Connection } from "./connection.js";
import type { RedisStoreUnavailableError } from "./errors.js";
import { inputError, requiredNumber } from "./input.js";
import { LocalShare } from "./local-share.js";
import { RedisRateLimitStore } from "./rate-limit.js";

export { RedisBudgetStore } from "./budget.js";
export { commandLineRedisUrl, redisPasswordVariable, redisUrlVariable } from "./command-line.js";
export { RedisStoreError, RedisStoreInputError, RedisStoreReplyError, RedisStoreUnavailableError } from "./errors.js";
export { RedisRateLimitStore } from "./rate-limit.js";

/** The options of `createRedisStores`. */
export interface RedisStoresOptions {
  /** An ioredis client (which `close()` leaves open), or a `redis://` / `rediss://` URL (a connection the stores own). */
  redis: Redis | string;
  /** Namespace of every key the stores write. Default `content-scraper`. */
  prefix?: string;
  /**
   * How long a credit reservation may stay unsettled before it is released, presumed abandoned by a worker that died.
   * Default 30 minutes: longer than a call of the client lasts with its default retries (4, each wait at most 5
   * minutes), so a live call's hold is not released under it.
   */
  reservationTtlMs?: number;
  /**
   * Names this process's credit reservations (a fleet worker's id, without `/`), so that `budget.release(key, holder)`
   * can release them at once when the process is known to be dead, instead of after `reservationTtlMs`.
   */
  holder?: string;
  /** How long to wait for Redis before it counts as unreachable. Default 2 000 ms. */
  commandTimeoutMs?: number;
  /**
   * While Redis is unreachable, pace this process on its share of the account's rate, requestsPerMinute / `workers`,
   * starting empty. `workers` must be at least the number of processes sharing the key, or the fleet may exceed the
   * rate. Without `fallback` (the default), `take` rejects with `RedisStoreUnavailableError` until Redis answers.
   */
  fallback?: { workers: number };
  /** Told once each time Redis stops answering. */
  onUnavailable?: (error: RedisStoreUnavailableError) => void;
  /** Told once each time Redis answers again after `onUnavailable`. */
  onRecovered?: () => void;
}

/** What `createRedisStores` answers: the two stores, to pass to the client's `rateLimit` and `budget`, and `close`. */
export interface RedisStores {
  rateLimit: RedisRateLimitStore;
  budget: RedisBudgetStore;
  /** Closes the connection the stores opened from a URL; a client passed in is the caller's to close. */
  close(): Promise<void>;
}

/** A rate-limit store and a credit-budget store on one Redis: one bucket and one budget per key for every process. */
export function createRedisStores(options: RedisStoresOptions): RedisStores {
  if (typeof options !== "object" || options === null) throw inputError("options", "createRedisStores needs { redis }.");
  const prefix = options.prefix ?? "content-scraper";
  if (typeof prefix !== "string" || prefix === "") throw inputError("prefix", "prefix must be a non-empty string.");
  const reservationTtlMs = checkNumber("reservationTtlMs", options.reservationTtlMs, 30 * 60_000, { positive: true }, inputError);
  const commandTimeoutMs = checkNumber("commandTimeoutMs", options.commandTimeoutMs, 2_000, { positive: true }, inputError);
  const workers = options.fallback && requiredNumber("fallback.workers", options.fallback.workers, { positive: true, integer: true });
  const { holder } = options;
  if (holder !== undefined && (typeof holder !== "string" || holder === "" || holder.includes("/"))) throw inputError("holder", "holder must be a non-empty string without '/'.");
  const owned = typeof options.redis === "string";
  const redis = typeof options.redis === "string" ? connect(options.redis) : options.redis;
  // Duck-typed: the caller's ioredis may be another copy of the package than ours.
  if (typeof (redis as Partial<Redis> | undefined)?.evalsha !== "function") throw inputError("redis", redisExpected);
  const connection = new Connection(redis, commandTimeoutMs, options, new Redactor([passwordOf(options.redis)]));
  return {
    rateLimit: new RedisRateLimitStore(connection, prefix, workers ? new LocalShare(workers) : undefined),
    budget: new RedisBudgetStore(connection, prefix, reservationTtlMs, holder),
    async close() {
      if (!owned) return;
      // QUIT lets the commands sent finish; a connection that is down has none to finish, and would queue QUIT.
      if (redis.status === "ready") await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}

const redisExpected = "redis must be an ioredis client or a redis:// (rediss://) URL.";

/** The password of a Redis URL (or of the client's options), for the redactor. */
function passwordOf(redis: Redis | string): string | undefined {
  if (typeof redis !== "string") return redis.options?.password;
  try {
    return decodeURIComponent(new URL(redis).password) || undefined;
  } catch {
    return undefined;
  }
}

function connect(url: string): Redis {
  if (!/^rediss?:\/\//.test(url)) throw inputError("redis", redisExpected);
  // Commands wait for one reconnection at most; the stores' own timeout bounds the rest.
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  // Outages reach the caller as RedisStoreUnavailableError (and onUnavailable), not as ioredis's console warnings.
  redis.on("error", () => {});
  return redis;
}
