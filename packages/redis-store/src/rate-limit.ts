import { type BucketLimit, holdMs, keepTakesMs, type RateLimitStore, readCount, wayThereMs } from "@content-scraper/runtime";
import { type Connection, type Script, script } from "./connection.js";
import { RedisStoreReplyError, RedisStoreUnavailableError } from "./errors.js";
import { inputError, requiredNumber } from "./input.js";
import { storeKeys } from "./keys.js";
import type { LocalShare } from "./local-share.js";

/**
 * The bucket's state is a hash: `tokens` as of `at` (ms, server time). Tokens refill continuously at
 * requestsPerMinute / 60 000 per ms up to the capacity; a bucket that has no key is full. A `Retry-After` empties the
 * bucket and moves `at` to when it ends, so that nothing refills before then.
 *
 * A token taken from a full bucket `holds` the refill: the service's bucket is full too, and stays full (wasting its
 * refill) until that request reaches it, while this one would already be refilling; the difference, the first
 * request's latency times the rate, would let the fleet send a request too many when the burst runs out. So refill
 * resumes at the service's first count (`correct`), or `holdMs` later if none comes (the runtime's, as its in-memory
 * bucket does).
 *
 * Every script saves what it changed and lets the key expire when the bucket would be full again (an idle bucket costs
 * no memory). Beside it, a sorted set holds when each token of the last `keepTakesMs` was taken (by every process), so
 * that a count of the service's is read as `servedCount` in the runtime's memory-stores.ts reads it: less the tokens taken
 * after the service counted.
 */
const bucket = `
local perMs = tonumber(ARGV[1]) / 60000
local capacity = math.max(1, tonumber(ARGV[1]) * tonumber(ARGV[2]) / 60)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at', 'held')
local tokens = tonumber(state[1]) or capacity
local at = tonumber(state[2]) or now
local held = state[3] == '1'
if now > at then
  held = false
  tokens = math.min(capacity, tokens + (now - at) * perMs)
  at = now
end
local function save()
  redis.call('HSET', KEYS[1], 'tokens', tokens, 'at', at, 'held', held and 1 or 0)
  redis.call('PEXPIRE', KEYS[1], math.ceil(at - now + (capacity - tokens) / perMs) + 1000)
end
`;

/** ARGV: rpm, burstSeconds. Answers 0 when a token was taken, else the ms until one will be there. */
const take = script(`${bucket}
if tokens >= 1 then
  if tokens >= capacity then
    at = now + ${holdMs}
    held = true
  end
  tokens = tokens - 1
  save()
  redis.call('ZADD', KEYS[2], now, now .. ':' .. redis.call('HINCRBY', KEYS[1], 'taken', 1))
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - ${keepTakesMs})
  redis.call('PEXPIRE', KEYS[2], ${keepTakesMs})
  return 0
end
return math.max(1, math.ceil(at - now + (1 - tokens) / perMs))
`);

/**
 * ARGV: rpm, burstSeconds, remaining, ageMs. The service counted \`remaining\` when it admitted a request that left
 * \`ageMs\` ago (it got there its way there later, at most ${wayThereMs} ms or half the age): never more tokens than that
 * count, plus what the service refilled since, less the tokens taken after it counted (clamped to 0..capacity);
 * a held refill resumes from when the service counted.
 */
const correct = script(`${bucket}
local age = math.max(0, tonumber(ARGV[4]))
local counted = now - age + math.min(age / 2, ${wayThereMs})
if held then
  at = math.min(at, counted)
  held = false
  tokens = math.min(capacity, tokens + (now - at) * perMs)
  at = now
end
local taken = redis.call('ZCOUNT', KEYS[2], '(' .. counted, '+inf')
local served = math.max(0, math.min(capacity, tonumber(ARGV[3]) + (now - counted) * perMs - taken))
tokens = math.min(tokens, served)
save()
`);

/** ARGV: rpm, burstSeconds, ms. No token for anyone until `ms` from now. */
const pause = script(`${bucket}
tokens = 0
at = math.max(at, now + tonumber(ARGV[3]))
held = false
save()
`);

/**
 * The token bucket of each key in Redis, shared by every process that uses the same Redis and key. When Redis does not
 * answer, `take` paces on the local share if there is one (see `LocalShare`) and rejects with
 * `RedisStoreUnavailableError` if not; `correct` and `pause` then apply to the local share only, and never reject: the
 * next `take` decides whether anything is sent.
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #connection: Connection;
  readonly #prefix: string;
  readonly #local: LocalShare | undefined;

  constructor(connection: Connection, prefix: string, local: LocalShare | undefined) {
    this.#connection = connection;
    this.#prefix = prefix;
    this.#local = local;
  }

  async take(key: string, limit: BucketLimit): Promise<number> {
    checkLimit(limit);
    try {
      const reply = await this.#run("take", take, key, limit);
      // The script answers an integer: 0 (taken) or the milliseconds to wait. Anything else grants nothing.
      const wait = typeof reply === "number" ? readCount(reply) : undefined;
      if (wait === undefined) throw new RedisStoreReplyError("rateLimit.take", reply);
      this.#local?.reset();
      return wait;
    } catch (error) {
      if (!this.#local || !(error instanceof RedisStoreUnavailableError)) throw error;
      return this.#local.take(key, limit);
    }
  }

  async correct(key: string, limit: BucketLimit, remaining: number, ageMs = 0): Promise<void> {
    checkLimit(limit);
    // Any count is clamped to 0..capacity (the script clamps to the capacity); only a value that is no count is refused.
    if (typeof remaining !== "number" || Number.isNaN(remaining)) throw inputError("remaining", "remaining must be a number.");
    const age = requiredNumber("ageMs", ageMs);
    const count = Math.min(Math.max(remaining, 0), Number.MAX_SAFE_INTEGER);
    await this.#runOrLocal("correct", correct, key, limit, [count, age], () => this.#local?.correct(key, limit, count, age));
  }

  async pause(key: string, limit: BucketLimit, ms: number): Promise<void> {
    checkLimit(limit);
    requiredNumber("ms", ms);
    await this.#runOrLocal("pause", pause, key, limit, [ms], () => this.#local?.pause(key, limit, ms));
  }

  async #runOrLocal(operation: string, code: Script, key: string, limit: BucketLimit, values: number[], local: () => void) {
    try {
      await this.#run(operation, code, key, limit, ...values);
    } catch (error) {
      if (!(error instanceof RedisStoreUnavailableError)) throw error;
      local();
    }
  }

  #run(operation: string, code: Script, key: string, limit: BucketLimit, ...extra: number[]) {
    const keys = storeKeys(this.#prefix, key);
    return this.#connection.run(`rateLimit.${operation}`, code, [keys.bucket, keys.takes], [limit.requestsPerMinute, limit.burstSeconds, ...extra]);
  }
}

function checkLimit(limit: BucketLimit): void {
  requiredNumber("limit.requestsPerMinute", limit?.requestsPerMinute, { positive: true });
  requiredNumber("limit.burstSeconds", limit?.burstSeconds, { positive: true });
}
