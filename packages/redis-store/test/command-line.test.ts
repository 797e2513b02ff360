// The Redis URL a bin's command line names: never with its password, which comes from the environment.
import { describe, expect, it } from "vitest";
import { commandLineRedisUrl, RedisStoreInputError } from "../src/index.js";

const password = "p@ss:word/SECRET";

/** The error `commandLineRedisUrl` throws for these arguments. */
function refusal(...args: Parameters<typeof commandLineRedisUrl>): RedisStoreInputError {
  try {
    commandLineRedisUrl(...args);
  } catch (error) {
    expect(error).toBeInstanceOf(RedisStoreInputError);
    return error as RedisStoreInputError;
  }
  throw new Error("commandLineRedisUrl did not refuse");
}

describe("commandLineRedisUrl", () => {
  it("adds the password from CONTENT_SCRAPER_REDIS_PASSWORD to a URL without one", () => {
    const url = commandLineRedisUrl("--redis", "redis://127.0.0.1:6379/2", { CONTENT_SCRAPER_REDIS_PASSWORD: password });
    expect(decodeURIComponent(new URL(url).password)).toBe(password);
    expect(new URL(url).host).toBe("127.0.0.1:6379");
    expect(new URL(url).pathname).toBe("/2");
    expect(commandLineRedisUrl("--redis", "rediss://user@cache:6380", {})).toBe("rediss://user@cache:6380");
  });

  it.each([
    ["a password alone", `redis://:${encodeURIComponent(password)}@127.0.0.1:6379`],
    ["a user and a password", `rediss://admin:${encodeURIComponent(password)}@cache:6380`],
  ])("refuses a URL that holds %s, naming the flag and the variable, without repeating it", (_case, url) => {
    const error = refusal("--redis", url, { CONTENT_SCRAPER_REDIS_PASSWORD: "another" });
    expect(error.field).toBe("--redis");
    expect(error.message).toBe("--redis holds a password, which every user of this machine can read on the command line: set CONTENT_SCRAPER_REDIS_PASSWORD instead.");
    expect(`${error.message}${error.stack}`).not.toContain(encodeURIComponent(password));
  });

  it("reads the whole URL from CONTENT_SCRAPER_REDIS_URL for a flag without one", () => {
    const whole = `redis://:${encodeURIComponent(password)}@127.0.0.1:6379`;
    expect(commandLineRedisUrl("--redis", true, { CONTENT_SCRAPER_REDIS_URL: whole })).toBe(whole);
    const unset = refusal("--redis", true, {});
    expect([unset.field, unset.message]).toEqual(["CONTENT_SCRAPER_REDIS_URL", "--redis without a URL reads CONTENT_SCRAPER_REDIS_URL, which is not set."]);
  });

  it.each([
    ["not a URL", "127.0.0.1:6379 x", "--redis is not a URL (expected redis://host:6379)."],
    ["another scheme", "http://127.0.0.1:6379", "--redis must be a redis:// or rediss:// URL."],
  ])("refuses what is %s, naming the flag", (_case, url, message) => {
    const error = refusal("--redis", url, {});
    expect([error.field, error.message]).toEqual(["--redis", message]);
  });
});
