import { randomUUID } from "node:crypto";
import { type AccountRate, type BudgetState, type BudgetWait, type CreditBudgetStore, type CreditReservation, readAmount, readCount } from "@content-scraper/runtime";
import { type Connection, type Script, script } from "./connection.js";
import { RedisStoreReplyError, RedisStoreUnavailableError } from "./errors.js";
import { inputError, requiredNumber } from "./input.js";
import { storeKeys } from "./keys.js";

/**
 * A budget is a hash (`spent`, `reserved`, `held:<id>` = the credits of each open reservation, `rate:<operation>` =
 * the highest credits per call an operation priced at the account's rate was charged, and `probe:<operation>` = the
 * reservation of the one call finding an unknown rate out, named back by `probeof:<id>`, with `probeuntil:<operation>`
 * when another call may take over if it has not settled by then: its process may be gone) beside a sorted set of the
 * open reservations by expiry (ms, server time). Every script first releases the reservations whose time is up: their
 * worker died, or lost its connection, before it could settle them. A released reservation leaves a `lapsed:<id>`
 * mark, so that a settlement arriving late still counts its charge, once.
 */
const budget = `
local function unprobe(id)
  local operation = redis.call('HGET', KEYS[1], 'probeof:' .. id)
  if not operation then return end
  redis.call('HDEL', KEYS[1], 'probeof:' .. id)
  if redis.call('HGET', KEYS[1], 'probe:' .. operation) == id then redis.call('HDEL', KEYS[1], 'probe:' .. operation, 'probeuntil:' .. operation) end
end
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)
for _, id in ipairs(expired) do
  redis.call('HINCRBYFLOAT', KEYS[1], 'reserved', -(tonumber(redis.call('HGET', KEYS[1], 'held:' .. id)) or 0))
  redis.call('HDEL', KEYS[1], 'held:' .. id)
  redis.call('HSET', KEYS[1], 'lapsed:' .. id, 1)
  unprobe(id)
end
if #expired > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now) end
local spent = tonumber(redis.call('HGET', KEYS[1], 'spent')) or 0
local reserved = math.max(0, tonumber(redis.call('HGET', KEYS[1], 'reserved')) or 0)
`;

/**
 * ARGV: id, credits, maxCredits, ttlMs, operation ('' for a fixed price), known ('1': the caller knows the rate),
 * probeMs (how long a call finding out the rate holds the others).
 * Answers { id, price }: the price is `credits`, or the operation's known rate if higher; nil when spent + reserved +
 * price > maxCredits; 'wait' while another call finds out the operation's rate.
 */
const reserve = script(`${budget}
local operation = ARGV[5]
local price = tonumber(ARGV[2])
local probing = false
if operation ~= '' then
  local rate = tonumber(redis.call('HGET', KEYS[1], 'rate:' .. operation))
  if rate then
    price = math.max(price, rate)
  elseif ARGV[6] ~= '1' then
    local held_until = tonumber(redis.call('HGET', KEYS[1], 'probeuntil:' .. operation)) or 0
    if redis.call('HEXISTS', KEYS[1], 'probe:' .. operation) == 1 and held_until > now then return 'wait' end
    probing = true
  end
end
if spent + reserved + price > tonumber(ARGV[3]) then return false end
redis.call('HSET', KEYS[1], 'reserved', reserved + price, 'held:' .. ARGV[1], price)
if probing then
  redis.call('HSET', KEYS[1], 'probe:' .. operation, ARGV[1], 'probeof:' .. ARGV[1], operation, 'probeuntil:' .. operation, now + tonumber(ARGV[7]))
end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[4]), ARGV[1])
return { ARGV[1], tostring(price) }
`);

/**
 * ARGV: id, charged, operation ('' for none), rate ('' when the answer showed none). Replaces the reservation with what
 * was charged, also when it had lapsed: a charge is never lost; the operation's rate rises to `rate`. Idempotent: a
 * reservation settled already (a settlement replayed after a timeout that did reach Redis) changes nothing.
 */
const settle = script(`${budget}
unprobe(ARGV[1])
if ARGV[3] ~= '' and ARGV[4] ~= '' then
  local rate = tonumber(redis.call('HGET', KEYS[1], 'rate:' .. ARGV[3])) or 0
  redis.call('HSET', KEYS[1], 'rate:' .. ARGV[3], math.max(rate, tonumber(ARGV[4])))
end
local held = tonumber(redis.call('HGET', KEYS[1], 'held:' .. ARGV[1]))
if held then
  reserved = math.max(0, reserved - held)
  redis.call('HDEL', KEYS[1], 'held:' .. ARGV[1])
  redis.call('ZREM', KEYS[2], ARGV[1])
elseif redis.call('HDEL', KEYS[1], 'lapsed:' .. ARGV[1]) == 0 then
  return
end
redis.call('HSET', KEYS[1], 'spent', spent + tonumber(ARGV[2]), 'reserved', reserved)
`);

/**
 * ARGV: holder. Releases every open reservation of `holder` (a process known to be dead) as if its time were up: a
 * settlement that still arrives counts its charge, once. Answers how many were released.
 */
const release = script(`${budget}
local released = 0
local prefix = ARGV[1] .. '/'
for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  if string.sub(id, 1, #prefix) == prefix then
    reserved = reserved - (tonumber(redis.call('HGET', KEYS[1], 'held:' .. id)) or 0)
    redis.call('HDEL', KEYS[1], 'held:' .. id)
    redis.call('HSET', KEYS[1], 'lapsed:' .. id, 1)
    redis.call('ZREM', KEYS[2], id)
    unprobe(id)
    released = released + 1
  end
end
redis.call('HSET', KEYS[1], 'reserved', math.max(0, reserved))
return released
`);

/** Answers { spent, reserved } as strings (a Lua number would reach the caller truncated to an integer). */
const state = script(`${budget}
return { tostring(spent), tostring(reserved) }
`);

interface Pending {
  key: string;
  id: string;
  charged: number;
  operation: string;
  rate: string;
}

/** How long a call waits before asking again while another finds out its operation's rate. */
const probeWaitMs = 100;
/**
 * How long the call finding out a rate holds the others at most: past it (its process may be gone without settling),
 * the next call finds the rate out instead. Longer than an attempt's timeout (120 s at most), shorter than a lapse.
 */
const probeHoldMs = 150_000;

/**
 * Each key's credit budget in Redis, shared by every process that uses the same Redis and key. `reserve` is atomic:
 * spent + reserved never passes `maxCredits`, whatever the number of processes. A reservation not settled within
 * `reservationTtlMs` is released (its worker is presumed dead).
 *
 * When Redis does not answer, `reserve` and `state` reject with `RedisStoreUnavailableError`: nothing is sent on
 * credits nobody could count. `settle` never loses a charge: one that cannot reach Redis is kept in this process and
 * replayed before its next `reserve` or `state`.
 */
export class RedisBudgetStore implements CreditBudgetStore {
  readonly #connection: Connection;
  readonly #prefix: string;
  readonly #ttlMs: number;
  readonly #holder: string | undefined;
  readonly #pending: Pending[] = [];
  #replaying: Promise<void> | undefined;

  constructor(connection: Connection, prefix: string, reservationTtlMs: number, holder?: string) {
    this.#connection = connection;
    this.#prefix = prefix;
    this.#ttlMs = reservationTtlMs;
    this.#holder = holder;
  }

  reserve(key: string, credits: number, maxCredits: number): Promise<CreditReservation | undefined>;
  reserve(key: string, credits: number, maxCredits: number, rate?: AccountRate): Promise<CreditReservation | BudgetWait | undefined>;
  async reserve(key: string, credits: number, maxCredits: number, rate?: AccountRate): Promise<CreditReservation | BudgetWait | undefined> {
    requiredNumber("credits", credits);
    requiredNumber("maxCredits", maxCredits);
    const operation = rate?.operation ?? "";
    if (typeof operation !== "string") throw inputError("rate.operation", "rate.operation must be a string.");
    await this.#replay();
    const id = this.#holder === undefined ? randomUUID() : `${this.#holder}/${randomUUID()}`;
    const answer = await this.#run("reserve", reserve, key, [id, credits, maxCredits, this.#ttlMs, operation, rate?.known ? "1" : "", Math.min(probeHoldMs, this.#ttlMs)]);
    // The script answers { id, price }, 'wait', or nil (refused): nil from anything else refuses too.
    if (answer === null) return undefined;
    if (answer === "wait") return { waitMs: probeWaitMs };
    const [answeredId, price] = Array.isArray(answer) && answer.length === 2 ? [answer[0], readAmount(answer[1])] : [];
    if (answeredId !== id || price === undefined || price < credits) throw new RedisStoreReplyError("budget.reserve", answer);
    return { id, credits: price, operation: rate?.operation };
  }

  async settle(key: string, reservation: CreditReservation, charged: number, rate?: number): Promise<void> {
    requiredNumber("charged", charged);
    if (rate !== undefined) requiredNumber("rate", rate);
    if (typeof reservation?.id !== "string") throw new TypeError("reservation must be what reserve() answered.");
    const pending = { key, id: reservation.id, charged, operation: reservation.operation ?? "", rate: rate === undefined ? "" : String(rate) };
    try {
      await this.#settle(pending);
    } catch (error) {
      if (!(error instanceof RedisStoreUnavailableError)) throw error;
      this.#pending.push(pending);
    }
  }

  async state(key: string): Promise<BudgetState> {
    await this.#replay();
    const reply = await this.#run("state", state, key, []);
    const [spent, reserved] = Array.isArray(reply) && reply.length === 2 ? reply.map(readAmount) : [];
    if (spent === undefined || reserved === undefined) throw new RedisStoreReplyError("budget.state", reply);
    return { spent, reserved };
  }

  /**
   * Releases at once the open reservations that the stores created with `holder` made under `key`: their process is
   * known to be dead (a fleet's coordinator saw its worker exit), so the budget need not wait `reservationTtlMs`. A
   * settlement that still arrives counts its charge, once. Answers how many were released.
   */
  async release(key: string, holder: string): Promise<number> {
    if (typeof holder !== "string" || holder === "") throw inputError("holder", "holder must be a non-empty string.");
    const answer = await this.#run("release", release, key, [holder]);
    const released = readCount(answer);
    if (released === undefined) throw new RedisStoreReplyError("budget.release", answer);
    return released;
  }

  /** The settlements Redis missed, oldest first, one replay at a time; rejects at the first that still cannot reach it. */
  #replay(): Promise<void> {
    if (this.#pending.length === 0) return Promise.resolve();
    this.#replaying ??= this.#drain().finally(() => {
      this.#replaying = undefined;
    });
    return this.#replaying;
  }

  async #drain(): Promise<void> {
    while (this.#pending.length > 0) {
      await this.#settle(this.#pending[0] as Pending);
      this.#pending.shift();
    }
  }

  #settle({ key, id, charged, operation, rate }: Pending) {
    return this.#run("settle", settle, key, [id, charged, operation, rate]);
  }

  #run(operation: string, code: Script, key: string, args: (string | number)[]) {
    const keys = storeKeys(this.#prefix, key);
    return this.#connection.run(`budget.${operation}`, code, [keys.budget, keys.reservations], args);
  }
}
