// The scraper client on the Redis stores: what one client hears from the service (X-Scraper-RateLimit-Remaining, a
// 429's Retry-After) holds every client on the same key, each on its own connection as separate processes would be.
import { createScraperClient, ScraperBudgetError, ScraperStoreError } from "@content-scraper/client";
import { type Handler, startScriptedServer } from "@content-scraper/test-server";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createRedisStores, type RedisStores, RedisStoreUnavailableError } from "../src/index.js";
import { startRedis } from "@content-scraper/test-server/redis";

let redis: Awaited<ReturnType<typeof startRedis>>;
let server: Awaited<ReturnType<typeof startScriptedServer>>;
const opened: RedisStores[] = [];
const stores = () => {
  const s = createRedisStores({ redis: redis.url });
  opened.push(s);
  return s;
};
let n = 0;
// A key per test: each starts on a full bucket and an empty budget.
const client = (options: { rateLimit?: object; budget?: object }, key = `client-test-${n}`) => {
  const s = stores();
  return createScraperClient({
    apiKey: "scrape_live_fleet",
    baseUrl: server.baseUrl,
    rateLimit: { requestsPerMinute: 60, store: s.rateLimit, key, ...options.rateLimit },
    ...(options.budget ? { budget: { maxCredits: 3, store: s.budget, key, ...options.budget } } : {}),
  });
};
const ok =
  (headers: Record<string, string> = {}): Handler =>
  (_request, response) => {
    response.writeHead(200, { "content-type": "application/json", "x-scraper-credits-charged": "1", "x-scraper-credits-remaining": "99", ...headers });
    response.end(JSON.stringify({ data: { username: "c" }, request_id: "req_ok", upstream_calls: 1, meta: { credits_charged: 1, credits_remaining: 99 } }));
  };
const since = (i: number) => (server.requests[i]?.at ?? 0) - (server.requests[0]?.at ?? 0);

beforeAll(async () => {
  [redis, server] = await Promise.all([startRedis(), startScriptedServer("/api/v1")]);
});
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  await Promise.all([redis?.stop(), server?.close()]);
});

it("X-Scraper-RateLimit-Remaining seen by one client empties the bucket of every client on the key", async () => {
  n++;
  server.script(ok({ "x-scraper-ratelimit-remaining": "0" }));
  const [a, b] = [client({}), client({})];
  const { response } = await a.profile("shortvideo", "c");
  await new Promise((resolve) => setTimeout(resolve, 100)); // the client corrects the bucket after it answers
  await b.profile("shortvideo", "c");
  // 60 a minute: the service had 0 left when it admitted a's request, about half its answer's time before the answer,
  // so the next token is a second after that (unshared, b would go at once).
  expect(since(1)).toBeGreaterThanOrEqual(900 - response.elapsedMs / 2);
}, 15_000);

it("a 429's Retry-After seen by one client holds every client on the key", async () => {
  n++;
  server.script((_request, response) => {
    response.writeHead(429, { "content-type": "application/json", "retry-after": "1", "x-scraper-credits-charged": "0" });
    response.end(JSON.stringify({ error: "SCRAPER_RATE_LIMITED", message: "slow down", request_id: "req_429" }));
  }, ok());
  const [a, b] = [client({ rateLimit: { requestsPerMinute: 6000 } }), client({ rateLimit: { requestsPerMinute: 6000 } })];
  const first = a.profile("shortvideo", "c");
  await vi.waitFor(() => expect(server.requests).toHaveLength(1));
  await new Promise((resolve) => setTimeout(resolve, 100)); // the 429 has landed and paused the shared bucket
  await Promise.all([first, b.profile("shortvideo", "c")]);
  expect(since(1)).toBeGreaterThanOrEqual(950);
  expect(since(2)).toBeGreaterThanOrEqual(950);
}, 15_000);

it("clients on one budget key stop together at maxCredits, refused before sending", async () => {
  n++;
  server.script(ok());
  const [a, b] = [client({ budget: {} }), client({ budget: {} })];
  await Promise.all([a.profile("shortvideo", "c"), b.profile("shortvideo", "c"), a.profile("shortvideo", "c")]);
  await expect(b.profile("shortvideo", "c")).rejects.toBeInstanceOf(ScraperBudgetError);
  expect(server.requests).toHaveLength(3);
});

it("sends nothing while Redis is unreachable: the call fails with the store's typed error", async () => {
  server.script(ok());
  const own = await startRedis();
  const s = createRedisStores({ redis: own.url, commandTimeoutMs: 500 });
  opened.push(s);
  const scraper = createScraperClient({ apiKey: "scrape_live_fleet", baseUrl: server.baseUrl, rateLimit: { requestsPerMinute: 60, store: s.rateLimit }, budget: { maxCredits: 10, store: s.budget } });
  await own.kill();
  const error = await scraper.profile("shortvideo", "c").catch((failure: unknown) => failure);
  // Through the client, a ScraperStoreError (every error the client throws is a ScraperError) caused by the store's.
  expect(error).toBeInstanceOf(ScraperStoreError);
  expect((error as ScraperStoreError).cause).toBeInstanceOf(RedisStoreUnavailableError);
  expect(server.requests).toHaveLength(0);
});
