import { createHash } from "node:crypto";
import { type Redactor, setTimer } from "@content-scraper/runtime";
import type { Redis } from "ioredis";
import { RedisStoreReplyError, RedisStoreUnavailableError } from "./errors.js";

/** A Lua script, sent once and then called by its SHA1 (EVALSHA), sent again (EVAL) when the server lost its cache. */
export interface Script {
  readonly source: string;
  readonly sha: string;
}

/**
 * Every script starts here: the time is the Redis server's (`TIME`), never a worker's, so clock skew between machines
 * changes nothing. Redis before 5 replicates scripts verbatim and refuses a write after `TIME` unless it is told to
 * replicate the script's effects instead; later versions always do, and ignore the call.
 */
const serverClock = `
if redis.replicate_commands then redis.replicate_commands() end
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + tonumber(clock[2]) / 1000
`;

export function script(body: string): Script {
  const source = serverClock + body;
  return { source, sha: createHash("sha1").update(source).digest("hex") };
}

export interface ConnectionEvents {
  onUnavailable?: ((error: RedisStoreUnavailableError) => void) | undefined;
  onRecovered?: (() => void) | undefined;
}

/**
 * The stores' one way to Redis: runs a script within `timeoutMs`, and turns every failure to get an answer (refused,
 * closed, reconnecting, too slow) into a `RedisStoreUnavailableError`. It tells `onUnavailable` once when Redis stops
 * answering and `onRecovered` once when it answers again.
 */
export class Connection {
  #available = true;

  constructor(
    readonly redis: Redis,
    private readonly timeoutMs: number,
    private readonly events: ConnectionEvents,
    /** Knows the password of the Redis URL: no error of the stores shows it. */
    private readonly redactor: Redactor,
  ) {}

  /** Runs `code`; its answer is for the caller to check (`checked` helpers of each store), never trusted as it came. */
  async run(operation: string, code: Script, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await this.#run(operation, code, keys, args);
    } catch (error) {
      throw this.redactor.error(error);
    }
  }

  async #run(operation: string, code: Script, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      // A client between reconnection attempts would queue the command until it is back: answer at once instead.
      if (this.redis.status === "reconnecting" || this.redis.status === "end") throw new Error(`connection ${this.redis.status}`);
      const answer = await this.#withinTimeout(this.#evaluate(code, keys, args));
      if (!this.#available) {
        this.#available = true;
        this.events.onRecovered?.();
      }
      return answer;
    } catch (cause) {
      // An error reply is an answer, not an outage: Redis (or a proxy) is there and refused.
      if (isScriptError(cause)) throw new RedisStoreReplyError(operation, cause, { cause });
      const error = new RedisStoreUnavailableError(operation, cause);
      if (this.#available) {
        this.#available = false;
        this.events.onUnavailable?.(error);
      }
      throw error;
    }
  }

  async #evaluate(code: Script, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(code.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith("NOSCRIPT"))) throw error;
      return this.redis.eval(code.source, keys.length, ...keys, ...args);
    }
  }

  #withinTimeout<T>(answer: Promise<T>): Promise<T> {
    let cancel = () => {};
    const timeout = new Promise<never>((_, reject) => {
      cancel = setTimer(() => reject(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    return Promise.race([answer, timeout]).finally(cancel);
  }
}

// An error raised by a script itself (a bug, not an outage) is thrown as it is.
const isScriptError = (error: unknown) => error instanceof Error && /^(ERR|WRONGTYPE)/.test(error.message) && !/NOSCRIPT/.test(error.message);
