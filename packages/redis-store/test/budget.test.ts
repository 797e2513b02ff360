import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createRedisStores, RedisStoreInputError, type RedisStores } from "../src/index.js";
import { startRedis } from "@content-scraper/test-server/redis";
import { budgetRateContract } from "./budget-contract.js";

let server: Awaited<ReturnType<typeof startRedis>>;
const opened: RedisStores[] = [];
const budgets = (count = 1, reservationTtlMs?: number) =>
  Array.from({ length: count }, () => {
    const s = createRedisStores({ redis: server.url, reservationTtlMs });
    opened.push(s);
    return s.budget;
  });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let n = 0;
const freshKey = () => `budget-${++n}`;

beforeAll(async () => {
  server = await startRedis();
});
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  await server?.stop();
});

it("never lets concurrent reservations from several connections pass maxCredits", async () => {
  const stores = budgets(4);
  const key = freshKey();
  const reservations = await Promise.all(Array.from({ length: 120 }, (_, i) => stores[i % 4]?.reserve(key, i % 3 === 0 ? 25 : 1, 100)));
  const granted = reservations.filter((r) => r !== undefined);
  const total = granted.reduce((sum, r) => sum + (r?.credits ?? 0), 0);
  expect(total).toBeLessThanOrEqual(100);
  expect(total).toBeGreaterThan(75); // refusals came only when the next one no longer fitted
  expect(await stores[0]?.state(key)).toEqual({ spent: 0, reserved: total });
  // Settled with what was charged (a refund charges 0), the reservations become spending.
  await Promise.all(granted.map((r, i) => stores[i % 4]?.settle(key, r as NonNullable<typeof r>, i === 0 ? 0 : (r?.credits ?? 0))));
  const spent = total - (granted[0]?.credits ?? 0);
  expect(await stores[1]?.state(key)).toEqual({ spent, reserved: 0 });
  expect(await stores[2]?.reserve(key, 101 - spent, 100)).toBeUndefined();
  expect(await stores[2]?.reserve(key, 100 - spent, 100)).toMatchObject({ credits: 100 - spent });
});

it("counts a settlement once, however often it is sent", async () => {
  const [store] = budgets();
  const key = freshKey();
  const reservation = await store?.reserve(key, 5, 10);
  if (!reservation) throw new Error("not reserved");
  await store?.settle(key, reservation, 4);
  await store?.settle(key, reservation, 4);
  expect(await store?.state(key)).toEqual({ spent: 4, reserved: 0 });
});

it("releases reservations nobody settled once their TTL has passed, and still counts a late settlement once", async () => {
  const [dead, alive] = budgets(2, 300);
  const key = freshKey();
  const abandoned = await dead?.reserve(key, 8, 10);
  expect(abandoned).toBeDefined();
  expect(await alive?.reserve(key, 5, 10)).toBeUndefined();
  await sleep(400);
  expect(await alive?.state(key)).toEqual({ spent: 0, reserved: 0 });
  const next = await alive?.reserve(key, 5, 10);
  expect(next).toBeDefined();
  // The "dead" worker was only slow: its charge counts, once.
  await dead?.settle(key, abandoned as NonNullable<typeof abandoned>, 3);
  await dead?.settle(key, abandoned as NonNullable<typeof abandoned>, 3);
  expect(await alive?.state(key)).toEqual({ spent: 3, reserved: 5 });
});

it("releases a dead holder's reservations at once, keeps the others, and counts its late settlement once", async () => {
  const [dead, alive] = ["worker-1", "worker-2"].map((holder) => {
    const stores = createRedisStores({ redis: server.url, holder });
    opened.push(stores);
    return stores.budget;
  });
  const key = freshKey();
  const lost = await dead?.reserve(key, 4, 10);
  const held = await alive?.reserve(key, 3, 10);
  expect(lost && held).toBeDefined();
  expect(await alive?.reserve(key, 4, 10)).toBeUndefined();
  expect(await alive?.release(key, "worker-1")).toBe(1);
  expect(await alive?.state(key)).toEqual({ spent: 0, reserved: 3 });
  expect(await alive?.reserve(key, 4, 10)).toBeDefined();
  // Releasing again, or a holder with no reservation, releases nothing; a "dead" holder's late charge counts once.
  expect(await alive?.release(key, "worker-1")).toBe(0);
  await dead?.settle(key, lost as NonNullable<typeof lost>, 4);
  await dead?.settle(key, lost as NonNullable<typeof lost>, 4);
  expect(await alive?.state(key)).toEqual({ spent: 4, reserved: 7 });
  expect(() => createRedisStores({ redis: server.url, holder: "a/b" })).toThrow(RedisStoreInputError);
});

it("keeps budgets apart by key and by prefix, and writes no caller key", async () => {
  const admin = new Redis(server.url);
  const a = createRedisStores({ redis: admin, prefix: "one" });
  const b = createRedisStores({ redis: admin, prefix: "two" });
  await a.budget.reserve("scrape_live_secret", 7, 10);
  expect(await b.budget.state("scrape_live_secret")).toEqual({ spent: 0, reserved: 0 });
  expect(await a.budget.state("another")).toEqual({ spent: 0, reserved: 0 });
  expect(await a.budget.state("scrape_live_secret")).toEqual({ spent: 0, reserved: 7 });
  const keys = await admin.keys("one:*");
  expect(keys.sort()).toEqual([expect.stringMatching(/^one:budget:\{[\w-]+\}$/), expect.stringMatching(/^one:budget:\{[\w-]+\}:reservations$/)]);
  expect(keys.join()).not.toContain("secret");
  admin.disconnect();
});

it("refuses credits that are not a non-negative number, naming the field", async () => {
  const [store] = budgets();
  await expect(store?.reserve("k", -1, 10)).rejects.toMatchObject({ name: "RedisStoreInputError", field: "credits" });
  await expect(store?.reserve("k", 1, Number.NaN)).rejects.toMatchObject({ field: "maxCredits" });
  await expect(store?.settle("k", { id: "x", credits: 1 }, undefined as never)).rejects.toBeInstanceOf(RedisStoreInputError);
});

budgetRateContract("redis", () => budgets()[0] as RedisStores["budget"]);

it("lets another call find a rate out once the call that was finding it has held the others past its time (its process died)", async () => {
  const [dead, alive] = budgets(2, 300);
  const key = freshKey();
  const rate = { operation: "shortvideoPosts" };
  expect(await dead?.reserve(key, 1, 10, rate)).toMatchObject({ credits: 1 });
  expect(await alive?.reserve(key, 1, 10, rate)).toMatchObject({ waitMs: expect.any(Number) });
  await sleep(400);
  const next = await alive?.reserve(key, 1, 10, rate);
  expect(next).toMatchObject({ credits: 1 });
  expect(await alive?.reserve(key, 1, 10, rate)).toMatchObject({ waitMs: expect.any(Number) });
});
