// A Redis (or a proxy on its port) that answers garbage: nil to everything, +OK, a negative, a string, an array, an
// error. The stores fail closed: every such reply is a RedisStoreReplyError, no token is granted and no credit
// reserved, and through the client each call ends at once, within its timeout, with nothing sent to the service.
import { inspect } from "node:util";
import { createScraperClient, ScraperStoreError } from "@content-scraper/client";
import { startScriptedServer } from "@content-scraper/test-server";
import { replies, startRespServer } from "@content-scraper/test-server/resp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisStores, type RedisStores, RedisStoreError, RedisStoreReplyError } from "../src/index.js";

let fake: Awaited<ReturnType<typeof startRespServer>>;
let stores: RedisStores;
let service: Awaited<ReturnType<typeof startScriptedServer>>;
const limit = { requestsPerMinute: 2, burstSeconds: 60 };

beforeAll(async () => {
  [fake, service] = await Promise.all([startRespServer(), startScriptedServer("/api/v1")]);
  stores = createRedisStores({ redis: fake.url.replace("redis://", "redis://:s3cretRedisPassw0rd@"), commandTimeoutMs: 1000 });
});
afterAll(async () => {
  await stores.close();
  await Promise.all([fake.stop(), service.close()]);
});

const garbage = Object.entries(replies);

describe.each(garbage)("a Redis that answers %s", (name, reply) => {
  it("take grants no token: a RedisStoreReplyError, once", async () => {
    fake.answer(reply);
    const before = fake.scripts;
    const error = await Promise.resolve(stores.rateLimit.take("k", limit)).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(RedisStoreReplyError);
    expect(fake.scripts - before).toBe(1);
  });

  it("reserve reserves nothing, and state is never read as a figure", async () => {
    fake.answer(reply);
    const reservation = await Promise.resolve(stores.budget.reserve("k", 1, 10)).catch((failure: unknown) => failure);
    // nil is the script's own "refused": nothing reserved; anything else is an error.
    if (name === "nil") expect(reservation).toBeUndefined();
    else expect(reservation).toBeInstanceOf(RedisStoreReplyError);
    await expect(stores.budget.state("k")).rejects.toBeInstanceOf(RedisStoreError);
  });

  it("a paced, budgeted call through the client ends at once with a ScraperStoreError, sending nothing, and shows no password", async () => {
    fake.answer(reply);
    service.script((_request, response) => {
      response.writeHead(500).end();
    });
    const scraper = createScraperClient({
      apiKey: "scrape_live_storeGarbage",
      baseUrl: service.baseUrl,
      timeoutMs: 2000,
      rateLimit: { requestsPerMinute: 2, store: stores.rateLimit },
    });
    const started = performance.now();
    const error = await scraper.profile("shortvideo", "creator").catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ScraperStoreError);
    expect((error as Error).cause).toBeInstanceOf(RedisStoreError);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(service.requests).toHaveLength(0);
    expect(inspect(error, { depth: 10 })).not.toContain("s3cretRedisPassw0rd");
    const budgeted = createScraperClient({ apiKey: "scrape_live_storeGarbage", baseUrl: service.baseUrl, rateLimit: false, budget: { maxCredits: 10, store: stores.budget } });
    await expect(budgeted.profile("shortvideo", "creator")).rejects.toBeInstanceOf(ScraperStoreError);
    expect(service.requests).toHaveLength(0);
  });
});
