import { inspect } from "node:util";
import { afterEach, expect, it } from "vitest";
import { createRedisStores, RedisStoreUnavailableError, type RedisStores } from "../src/index.js";
import { startRedis } from "@content-scraper/test-server/redis";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let server: Awaited<ReturnType<typeof startRedis>> | undefined;
let stores: RedisStores | undefined;
afterEach(async () => {
  await stores?.close();
  await server?.stop();
});

const limit = { requestsPerMinute: 600, burstSeconds: 60 };

it("without a fallback, refuses to take or reserve while Redis is down, with a typed error that shows no password", async () => {
  server = await startRedis(["--requirepass", "hunter2-secret"]);
  const events: string[] = [];
  stores = createRedisStores({
    redis: `redis://:hunter2-secret@127.0.0.1:${server.port}`,
    commandTimeoutMs: 500,
    onUnavailable: () => events.push("unavailable"),
    onRecovered: () => events.push("recovered"),
  });
  expect(await stores.rateLimit.take("k", limit)).toBe(0);
  const reservation = await stores.budget.reserve("k", 5, 100);
  await server.kill();

  const refusal = await stores.rateLimit.take("k", limit).catch((error: unknown) => error);
  expect(refusal).toBeInstanceOf(RedisStoreUnavailableError);
  expect(refusal).toMatchObject({ code: "REDIS_UNAVAILABLE" });
  await expect(stores.budget.reserve("k", 5, 100)).rejects.toBeInstanceOf(RedisStoreUnavailableError);
  await expect(stores.budget.state("k")).rejects.toBeInstanceOf(RedisStoreUnavailableError);
  // What answered before the outage is kept: a correction or pause is dropped, a settlement waits for Redis.
  await expect(stores.rateLimit.correct("k", limit, 0)).resolves.toBeUndefined();
  await expect(stores.budget.settle("k", reservation as NonNullable<typeof reservation>, 5)).resolves.toBeUndefined();
  expect(events).toEqual(["unavailable"]);
  for (const shown of [String(refusal), (refusal as Error).stack, inspect(refusal, { depth: 5 }), inspect(stores, { depth: 5 })]) {
    expect(shown).not.toContain("hunter2");
  }

  await server.start(); // back, empty (no persistence): the reconnection happens by itself
  await expect.poll(() => stores?.rateLimit.take("k", limit).catch(() => -1), { timeout: 5000, interval: 100 }).toBe(0);
  expect(events).toEqual(["unavailable", "recovered"]);
});

it("with a fallback, paces on this process's share of the rate, starting empty, until Redis answers again", async () => {
  server = await startRedis();
  const events: string[] = [];
  stores = createRedisStores({ redis: server.url, commandTimeoutMs: 500, fallback: { workers: 4 }, onUnavailable: () => events.push("unavailable") });
  expect(await stores.rateLimit.take("k", limit)).toBe(0);
  await server.kill();
  // 600 a minute over 4 workers: one token every 400 ms, and none at first.
  const first = await stores.rateLimit.take("k", limit);
  expect(first).toBeGreaterThan(300);
  expect(first).toBeLessThanOrEqual(400);
  const slept = performance.now();
  await sleep(first);
  expect(await stores.rateLimit.take("k", limit)).toBe(0);
  // The next token is due 400 ms after that one was, less what the sleep overran (a busy machine wakes late).
  const overran = performance.now() - slept - first;
  const next = await stores.rateLimit.take("k", limit);
  expect(next).toBeGreaterThanOrEqual(Math.max(0, 400 - overran - 100));
  expect(next).toBeLessThanOrEqual(400);
  // A Retry-After seen meanwhile holds the local share too.
  await stores.rateLimit.pause("k", limit, 2000);
  expect(await stores.rateLimit.take("k", limit)).toBeGreaterThan(1900);
  expect(events).toEqual(["unavailable"]);
  // The budget has no local share: it is refused.
  await expect(stores.budget.reserve("k", 1, 10)).rejects.toBeInstanceOf(RedisStoreUnavailableError);

  await server.start();
  await expect.poll(() => stores?.rateLimit.take("k", limit), { timeout: 5000, interval: 100 }).toBe(0);
});

it("counts a Redis that stops answering as unreachable after commandTimeoutMs, and replays a settlement it missed exactly once", async () => {
  server = await startRedis();
  stores = createRedisStores({ redis: server.url, commandTimeoutMs: 300 });
  const reservation = await stores.budget.reserve("k", 10, 100);
  server.freeze();
  await expect(stores.rateLimit.take("k", limit)).rejects.toBeInstanceOf(RedisStoreUnavailableError);
  // Sent, but unanswered: it may or may not have been applied when Redis resumes.
  await stores.budget.settle("k", reservation as NonNullable<typeof reservation>, 7);
  await expect(stores.budget.state("k")).rejects.toBeInstanceOf(RedisStoreUnavailableError);
  server.thaw();
  await expect.poll(() => stores?.budget.state("k").catch(() => undefined), { timeout: 5000, interval: 100 }).toEqual({ spent: 7, reserved: 0 });
});

it("closes its own connection while Redis is down, without waiting for it", async () => {
  server = await startRedis();
  const own = createRedisStores({ redis: server.url });
  expect(await own.rateLimit.take("k", limit)).toBe(0);
  await server.kill();
  await expect(own.rateLimit.take("k", limit)).rejects.toBeInstanceOf(RedisStoreUnavailableError);
  await own.close();
  await expect(own.rateLimit.take("k", limit)).rejects.toBeInstanceOf(RedisStoreUnavailableError);
});
