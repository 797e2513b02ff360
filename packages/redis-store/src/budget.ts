import { randomUUID } from "node:crypto";
import { type BudgetState, type CreditBudgetStore, type CreditReservation, readAmount, readCount } from "@content-scraper/runtime";
import { type Connection, type Script, script } from "./connection.js";
import { RedisStoreReplyError, RedisStoreUnavailableError } from "./errors.js";
import { inputError, requiredNumber } from "./input.js";
import { storeKeys } from "./keys.js";

/**
 * A budget is a hash (`spent`, `reserved`, and `held:<id>` = the credits of each open reservation) beside a sorted set
 * of the open reservations by expiry (ms, server time). Every script first releases the reservations whose time is up:
 * their worker died, or lost its connection, before it could settle them. A released reservation leaves a
 * `lapsed:<id>` mark, so that a settlement arriving late still counts its charge, once.
 */
const budget = `
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)
for _, id in ipairs(expired) do
  redis.call('HINCRBYFLOAT', KEYS[1], 'reserved', -(tonumber(redis.call('HGET', KEYS[1], 'held:' .. id)) or 0))
  redis.call('HDEL', KEYS[1], 'held:' .. id)
  redis.call('HSET', KEYS[1], 'lapsed:' .. id, 1)
end
if #expired > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now) end
local spent = tonumber(redis.call('HGET', KEYS[1], 'spent')) or 0
local reserved = math.max(0, tonumber(redis.call('HGET', KEYS[1], 'reserved')) or 0)
`;

/** ARGV: id, credits, maxCredits, ttlMs. Answers the id, or nil when spent + reserved + credits > maxCredits. */
const reserve = script(`${budget}
local credits = tonumber(ARGV[2])
if spent + reserved + credits > tonumber(ARGV[3]) then return false end
redis.call('HSET', KEYS[1], 'reserved', reserved + credits, 'held:' .. ARGV[1], credits)
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[4]), ARGV[1])
return ARGV[1]
`);

/**
 * ARGV: id, charged. Replaces the reservation with what was charged, also when it had lapsed: a charge is never lost.
 * Idempotent: a reservation settled already (a settlement replayed after a timeout that did reach Redis) changes nothing.
 */
const settle = script(`${budget}
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
}

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

  async reserve(key: string, credits: number, maxCredits: number): Promise<CreditReservation | undefined> {
    requiredNumber("credits", credits);
    requiredNumber("maxCredits", maxCredits);
    await this.#replay();
    const id = this.#holder === undefined ? randomUUID() : `${this.#holder}/${randomUUID()}`;
    const answer = await this.#run("reserve", reserve, key, [id, credits, maxCredits, this.#ttlMs]);
    // The script answers the id it was given, or nil (refused): nil from anything else refuses too.
    if (answer === null) return undefined;
    if (answer !== id) throw new RedisStoreReplyError("budget.reserve", answer);
    return { id, credits };
  }

  async settle(key: string, reservation: CreditReservation, charged: number): Promise<void> {
    requiredNumber("charged", charged);
    if (typeof reservation?.id !== "string") throw new TypeError("reservation must be what reserve() answered.");
    try {
      await this.#run("settle", settle, key, [reservation.id, charged]);
    } catch (error) {
      if (!(error instanceof RedisStoreUnavailableError)) throw error;
      this.#pending.push({ key, id: reservation.id, charged });
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
      const { key, id, charged } = this.#pending[0] as Pending;
      await this.#run("settle", settle, key, [id, charged]);
      this.#pending.shift();
    }
  }

  #run(operation: string, code: Script, key: string, args: (string | number)[]) {
    const keys = storeKeys(this.#prefix, key);
    return this.#connection.run(`budget.${operation}`, code, [keys.budget, keys.reservations], args);
  }
}
