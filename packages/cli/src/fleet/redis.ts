import { commandLineRedisUrl, RedisStoreInputError } from "@content-scraper/redis-store";
import { Redis } from "ioredis";
import { type Io, urlPassword } from "../io.js";
import { UsageError } from "../usage-error.js";

/**
 * The fleet's Redis URL, never with a password on the command line (every user of a machine can read argv): the
 * whole URL from `CONTENT_SCRAPER_REDIS_URL` (with `--redis` alone), or `--redis redis://host:port` with the password,
 * if any, from `CONTENT_SCRAPER_REDIS_PASSWORD` (the rule `content-scraper-mcp --redis` follows too, in one place:
 * `commandLineRedisUrl`). Workers get it through their environment.
 */
export function redisUrl(option: string | true, env: NodeJS.ProcessEnv, io: Io): string {
  // A password refused on the command line is still one this run must never print.
  if (option !== true) io.redactor.add(urlPassword(option));
  try {
    return commandLineRedisUrl("--redis", option, env);
  } catch (error) {
    if (error instanceof RedisStoreInputError) throw new UsageError(error.message);
    throw error;
  }
}

/** Where the fleet's Redis is, for messages: its host, never its password. */
export const redisHost = (url: string) => new URL(url).host;

/**
 * Tells a Redis outage in one line when it starts and one when it ends, however many commands fail meanwhile (the
 * connections' own errors are swallowed: no stack dumps).
 */
export function outageLines(url: string, say: (line: string) => void) {
  let down = false;
  return {
    failed(error: unknown) {
      if (down) return;
      down = true;
      const reason = (error as NodeJS.ErrnoException)?.code ?? (error as Error)?.message ?? String(error);
      say(`Redis at ${redisHost(url)} unreachable (${reason}): waiting for it; nothing is sent meanwhile`);
    },
    answered() {
      if (!down) return;
      down = false;
      say(`Redis at ${redisHost(url)} answers again`);
    },
    get down() {
      return down;
    },
  };
}

/** A connection for BullMQ and the fleet's own keys (BullMQ's blocking commands need `maxRetriesPerRequest: null`). */
export async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true });
  redis.on("error", () => {});
  await redis.connect().catch((error: Error) => {
    redis.disconnect();
    throw new UsageError(`--redis: cannot reach ${redisHost(url)} (${(error as NodeJS.ErrnoException).code ?? error.message})`);
  });
  return redis;
}
