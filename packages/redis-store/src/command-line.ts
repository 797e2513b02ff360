import { inputError } from "./input.js";

// Every user of a machine can read a process's command line (`ps`, /proc/<pid>/cmdline) for as long as it runs, and
// whoever has a Redis's password can delete the shared budgets in it, lifting every process's credit limit. So the bins
// that take a Redis (`content-scraper --redis`, `content-scraper-mcp --redis`) read its password from their
// environment only, through this one function.

/** Where a bin reads the password of the Redis its command line names. */
export const redisPasswordVariable = "CONTENT_SCRAPER_REDIS_PASSWORD";
/** Where a bin that takes `--redis` without a URL reads the whole URL, password included. */
export const redisUrlVariable = "CONTENT_SCRAPER_REDIS_URL";

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The Redis URL a bin's `flag` gives: `url` from its command line, which must hold no password (a
 * `RedisStoreInputError` naming `flag` says to set `CONTENT_SCRAPER_REDIS_PASSWORD` instead, without repeating it),
 * with the password, if any, from `CONTENT_SCRAPER_REDIS_PASSWORD`; or, for `true` (the flag without a URL), the whole
 * URL from `CONTENT_SCRAPER_REDIS_URL`.
 */
export function commandLineRedisUrl(flag: string, url: string | true, env: Environment): string {
  if (url === true) {
    const whole = env[redisUrlVariable];
    if (!whole) throw inputError(redisUrlVariable, `${flag} without a URL reads ${redisUrlVariable}, which is not set.`);
    checked(redisUrlVariable, whole);
    return whole;
  }
  const parsed = checked(flag, url);
  if (parsed.password !== "") {
    throw inputError(flag, `${flag} holds a password, which every user of this machine can read on the command line: set ${redisPasswordVariable} instead.`);
  }
  const password = env[redisPasswordVariable];
  if (password) parsed.password = encodeURIComponent(password);
  return parsed.href;
}

/** `url` parsed, if it is a redis:// or rediss:// URL; refused naming `name` otherwise (never repeating it). */
function checked(name: string, url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw inputError(name, `${name} is not a URL (expected redis://host:6379).`);
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") throw inputError(name, `${name} must be a redis:// or rediss:// URL.`);
  return parsed;
}
