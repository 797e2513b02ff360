import { keepTakesMs } from "@content-scraper/runtime";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createRedisStores, RedisStoreInputError, type RedisStores } from "../src/index.js";
import { startRedis } from "@content-scraper/test-server/redis";

let server: Awaited<ReturnType<typeof startRedis>>;
let admin: Redis;
const opened: RedisStores[] = [];
const stores = (count = 1) => Array.from({ length: count }, () => {
  const s = createRedisStores({ redis: server.url });
  opened.push(s);
  return s.rateLimit;
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let n = 0;
const freshKey = () => `key-${++n}`;

beforeAll(async () => {
  server = await startRedis();
  admin = new Redis(server.url);
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  admin.disconnect();
  await server?.stop();
});

describe("take", () => {
  it("hands out exactly the bucket's capacity to concurrent takers on several connections, then answers waits", async () => {
    // 1 per minute with an hour's burst: 60 tokens, and none refills while the test runs.
    const limit = { requestsPerMinute: 1, burstSeconds: 3600 };
    const key = freshKey();
    const takers = stores(4);
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => (takers[i % 4] as (typeof takers)[0]).take(key, limit)));
    expect(answers.filter((wait) => wait === 0)).toHaveLength(60);
    for (const wait of answers.filter((w) => w !== 0)) {
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(61_000); // a token a minute, after the hold of a bucket that left full (1 s)
    }
  });

  it("refills on the Redis server's clock, whatever the worker's clock says", async () => {
    const [store] = stores();
    const key = freshKey();
    const limit = { requestsPerMinute: 600, burstSeconds: 1 }; // 10 tokens, one more every 100 ms
    for (let i = 0; i < 10; i++) expect(await store?.take(key, limit)).toBe(0);
    await store?.correct(key, limit, 0); // the service's count: refill resumes
    const wait = (await store?.take(key, limit)) as number;
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(100);
    // This worker's clock jumps a day ahead: a bucket read on it would be full again.
    vi.useFakeTimers({ toFake: ["Date", "performance"] });
    vi.setSystemTime(Date.now() + 86_400_000);
    vi.advanceTimersByTime(86_400_000);
    expect(await store?.take(key, limit)).toBeGreaterThan(0);
    vi.useRealTimers();
    // Real time passes on the server: three tokens' worth.
    await sleep(350);
    const after = await Promise.all(Array.from({ length: 6 }, () => store?.take(key, limit)));
    expect(after.filter((w) => w === 0).length).toBeGreaterThanOrEqual(3);
    expect(after.filter((w) => w === 0).length).toBeLessThan(6);
  });

  it("runs its scripts again after the server lost them (EVALSHA falls back to EVAL)", async () => {
    const [store] = stores();
    const limit = { requestsPerMinute: 60, burstSeconds: 60 };
    const key = freshKey();
    expect(await store?.take(key, limit)).toBe(0);
    await admin.script("FLUSH");
    expect(await store?.take(key, limit)).toBe(0);
  });

  it("writes only namespaced, hashed keys (never the caller's key), which expire once the bucket would be full", async () => {
    const redis = new Redis(server.url);
    const own = createRedisStores({ redis, prefix: "tenant-a" });
    await own.rateLimit.take("scrape_live_secret", { requestsPerMinute: 60, burstSeconds: 60 });
    const keys = (await admin.keys("tenant-a:*")).sort();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^tenant-a:bucket:\{[\w-]+\}$/);
    expect(keys[1]).toBe(`${keys[0]}:takes`);
    expect(keys.join()).not.toContain("secret");
    // One token short of 60 at 1 per second, after the hold (1 s): full again within about 2 s (plus a second's margin).
    const ttl = await admin.pttl(keys[0] as string);
    expect(ttl).toBeGreaterThan(1900);
    expect(ttl).toBeLessThanOrEqual(3000);
    // When the token was taken, kept as long as a count may come back for it.
    expect(await admin.pttl(keys[1] as string)).toBeGreaterThan(keepTakesMs - 5_000);
    await own.close();
    expect(redis.status).toBe("ready"); // the caller's client stays open
    redis.disconnect();
  });

  it("refuses a limit that is not a positive number, naming the field", async () => {
    const [store] = stores();
    await expect(store?.take("k", { requestsPerMinute: 0, burstSeconds: 60 })).rejects.toMatchObject({ name: "RedisStoreInputError", field: "limit.requestsPerMinute" });
    await expect(store?.take("k", { requestsPerMinute: 60 } as never)).rejects.toBeInstanceOf(RedisStoreInputError);
    await expect(store?.correct("k", { requestsPerMinute: 60, burstSeconds: 60 }, Number.NaN)).rejects.toMatchObject({ field: "remaining" });
    await expect(store?.pause("k", { requestsPerMinute: 60, burstSeconds: 60 }, -1)).rejects.toMatchObject({ field: "ms" });
  });
});

describe("leaving full", () => {
  const limit = { requestsPerMinute: 6000, burstSeconds: 0.1 }; // 10 tokens, one more every 10 ms

  it("holds the refill until the service's first count, since the service's bucket stays full until a request reaches it", async () => {
    const [a, b] = stores(2);
    const key = freshKey();
    expect(await a?.take(key, limit)).toBe(0);
    await sleep(200); // 20 tokens' worth of refill, were it not held
    const held = await Promise.all(Array.from({ length: 10 }, () => b?.take(key, limit)));
    expect(held.filter((w) => w === 0)).toHaveLength(9);
    await a?.correct(key, limit, 9); // the first answer: refill resumes from here
    await sleep(100);
    const resumed = await Promise.all(Array.from({ length: 20 }, () => b?.take(key, limit)));
    expect(resumed.filter((w) => w === 0).length).toBeGreaterThanOrEqual(5);
    expect(resumed.filter((w) => w === 0).length).toBeLessThanOrEqual(10);
  });

  it("resumes a held refill from when the service counted: the answer's age ago, less the request's way there", async () => {
    const [store] = stores();
    const key = freshKey();
    for (let i = 0; i < 10; i++) expect(await store?.take(key, limit)).toBe(0);
    // The first answer came back after 400 ms: the service admitted it 300 ms ago (its way there is 100 ms at most) and has refilled 20 tokens since,
    // which its count (9 when it admitted it) does not show. Refill here resumes from then too: the bucket is full.
    await store?.correct(key, limit, 9, 400);
    const resumed = await Promise.all(Array.from({ length: 12 }, () => store?.take(key, limit)));
    expect(resumed.filter((w) => w === 0)).toHaveLength(10);
  });

  it("resumes the refill a second later when no count comes", async () => {
    const [store] = stores();
    const key = freshKey();
    expect(await store?.take(key, limit)).toBe(0);
    for (let i = 0; i < 9; i++) expect(await store?.take(key, limit)).toBe(0);
    const wait = (await store?.take(key, limit)) as number;
    expect(wait).toBeGreaterThan(900);
    expect(wait).toBeLessThanOrEqual(1010);
    await sleep(wait);
    expect(await store?.take(key, limit)).toBe(0);
  });
});

describe("correct", () => {
  const limit = { requestsPerMinute: 1, burstSeconds: 600 }; // 10 tokens, none refilled during a test

  it("never leaves more tokens than the service says remain", async () => {
    const [a, b] = stores(2);
    const key = freshKey();
    await a?.correct(key, limit, 3);
    expect([await b?.take(key, limit), await b?.take(key, limit), await b?.take(key, limit)]).toEqual([0, 0, 0]);
    expect(await a?.take(key, limit)).toBeGreaterThan(0);
  });

  it("leaves out of a count the tokens any process took after the service counted: they reach it later", async () => {
    const [a, b] = stores(2);
    const key = freshKey();
    expect(await a?.take(key, limit)).toBe(0); // the counted request, which leaves once its token is taken
    const sent = performance.now();
    await sleep(50); // the service counted a's request on its way there: within half its age (100 ms at most)
    for (let i = 0; i < 3; i++) expect(await b?.take(key, limit)).toBe(0); // in flight when its count comes back
    // The service had 8 left when it admitted a's request (other traffic on the account): 8 less b's 3 are left now.
    await a?.correct(key, limit, 8, performance.now() - sent);
    const takes = await Promise.all(Array.from({ length: 6 }, () => b?.take(key, limit)));
    expect(takes.filter((w) => w === 0)).toHaveLength(5);
  });

  it("never adds tokens, and clamps the count to 0..capacity", async () => {
    const [store] = stores();
    const key = freshKey();
    await store?.correct(key, limit, 1);
    await store?.correct(key, limit, 500); // more than remain and than the capacity: no effect
    expect(await store?.take(key, limit)).toBe(0);
    expect(await store?.take(key, limit)).toBeGreaterThan(0);
    const other = freshKey();
    await store?.correct(other, limit, -4);
    expect(await store?.take(other, limit)).toBeGreaterThan(0);
    const third = freshKey();
    await store?.correct(third, limit, Number.POSITIVE_INFINITY);
    expect(await store?.take(third, limit)).toBe(0);
  });
});

describe("pause", () => {
  it("gives no token to anyone until the Retry-After has passed", async () => {
    const [a, b] = stores(2);
    const key = freshKey();
    const limit = { requestsPerMinute: 6000, burstSeconds: 60 }; // 100 per second: refill is no reason to wait
    expect(await a?.take(key, limit)).toBe(0);
    await a?.pause(key, limit, 1500);
    const wait = (await b?.take(key, limit)) as number;
    expect(wait).toBeGreaterThan(1000);
    expect(wait).toBeLessThanOrEqual(1510);
    await sleep(wait);
    expect(await b?.take(key, limit)).toBe(0);
  });

  it("never shortens a longer pause", async () => {
    const [store] = stores();
    const key = freshKey();
    const limit = { requestsPerMinute: 6000, burstSeconds: 60 };
    await store?.pause(key, limit, 5000);
    await store?.pause(key, limit, 10);
    expect(await store?.take(key, limit)).toBeGreaterThan(4000);
  });
});
