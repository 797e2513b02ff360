// Runs in a fresh npm project where the packed tarballs are installed: every published entry point,
// imported by its package name, does something real, offline.
import assert from "node:assert/strict";
import { exitCodes, run } from "@content-scraper/cli";
import { createScraperClient, ScraperInputError } from "@content-scraper/client";
import { scraperApi } from "@content-scraper/client/api";
import { focusedClient } from "@content-scraper/client/focused";
import { callOperation } from "@content-scraper/client/operations";
import { validateResponses } from "@content-scraper/client/validate";
import { ConnectInputError, createConnectClient } from "@content-scraper/connect";
import { startMock } from "@content-scraper/mock";
import { createScraperMcp } from "@content-scraper/mcp";
import { createPlatformClient } from "@content-scraper/platform";
import * as oauth from "@content-scraper/platform/oauth";
import { createRedisStores, RedisStoreInputError } from "@content-scraper/redis-store";
import { retryAfterMs } from "@content-scraper/runtime";
import scraperDescription from "@content-scraper/spec/scraper.json" with { type: "json" };
import { isRequest, validateRequest } from "@content-scraper/validators";
import * as connectValidators from "@content-scraper/validators/connect";

/** @type {string[]} */
const results = [];
const ok = (/** @type {string} */ what) => results.push(what);

assert.equal(scraperDescription.info.version, "1.3.0");
ok("spec: scraper.json info.version 1.3.0");

assert.deepEqual(validateRequest("shortvideoFavorites", { handle: "maya.bakes" }), { valid: true });
assert.equal(validateRequest("shortvideoFavorites", { handle: 42 }).valid, false);
assert.equal(isRequest("shortvideoProfile", { username: "creator" }), true);
assert.ok(Array.isArray(connectValidators.operationIds));
ok("validators: a valid and an invalid request");

assert.throws(() => createScraperClient({ apiKey: "sk_live_abc", baseUrl: "http://127.0.0.1:9/api/v1" }), ScraperInputError);
ok("client: a connect key is refused with ScraperInputError");

assert.equal(validateResponses("shortvideoProfile", 200, { data: { username: "creator" } }).valid, false);
ok("client/validate: drift caught");

assert.throws(() => createConnectClient({ apiKey: "scrape_live_abc", baseUrl: "http://127.0.0.1:9/api/embed" }), ConnectInputError);
assert.equal(createConnectClient({ apiKey: "sk_test_abc", baseUrl: "http://127.0.0.1:9/api/embed" }).environment, "sandbox");
ok("connect: environment from the key");

assert.equal(typeof createPlatformClient, "function");
assert.equal(typeof oauth, "object");
assert.equal(retryAfterMs(new Headers({ "retry-after": "3" })), 3000);
ok("platform, platform/oauth, runtime: entries load");

assert.throws(() => createRedisStores({ redis: "http://127.0.0.1:9" }), (error) => error instanceof RedisStoreInputError && error.field === "redis");
ok("redis-store: an address that is not redis:// is refused with RedisStoreInputError");

const mock = await startMock({ port: 0, timeScale: 0 });
try {
  const scraper = createScraperClient({ apiKey: "scrape_live_consumer", baseUrl: mock.baseUrls.scraper, validateResponses });
  const { data } = await scraper.profile("shortvideo", "creator");
  assert.ok(data);
  ok(`mock: startMock on ${mock.url}, one profile through the client, validated`);
  const { response } = await scraperApi(scraper).POST("/scrape/shortvideo/profile", { body: { username: "creator" } });
  assert.equal(response.status, 200);
  ok("client/api: the typed door through the same client");
  const { data: regions } = await focusedClient(scraper, "shortvideo").regions();
  assert.ok(Array.isArray(regions.regions));
  ok("client/focused: a focused operation through the same client, validated");
  const { meta } = await callOperation(scraper, "photoshareProfile", { username: "creator" });
  assert.equal(meta.creditsCharged, 1);
  ok("client/operations: an operation by its operationId through the same client");
  const budgeted = createScraperClient({ apiKey: "scrape_live_consumer", baseUrl: mock.baseUrls.scraper, budget: { maxCredits: 1 } });
  const mcp = await createScraperMcp({ client: budgeted, allow: ["*Profile"] });
  assert.deepEqual(mcp.tools.map((tool) => tool.name).slice(0, 2), ["shortvideoProfile", "photoshareProfile"]);
  ok("mcp: createScraperMcp lists the profile tools");
  process.env.SCRAPER_API_KEY = "scrape_live_consumer";
  assert.equal(await run(["node", "content-scraper", "profile", "shortvideo", "creator", "--base-url", mock.baseUrls.scraper]), exitCodes.ok);
  ok("cli: content-scraper profile against the sandbox");
} finally {
  await mock.close();
}

console.log(results.join("\n"));
