// A sandbox starts without loading Prism: the build prepared each description for it (Prism's operations and its answer
// to each operation's usual request), and Prism is loaded when an answer first needs it. The first request of every
// surface is answered as the description says, and so is the first one that needs Prism.
import { validateResponse as platformResponse } from "@content-scraper/validators/platform";
import { validateResponse as legacyResponse } from "@content-scraper/validators/platform-legacy";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningMock } from "../src/index.js";
import { prismLoaded } from "../src/scraper/prism-calls.js";
import { call, charged, freshKey, start } from "./support.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await start();
});
afterAll(() => mock.close());

const metricsPath = "/posts/post_1/metrics-history";

async function platformCall(base: string, path: string, headers: Record<string, string>, init: RequestInit = {}) {
  const response = await fetch(`${base}${path}`, { ...init, headers });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

it("starts without loading Prism", () => {
  expect(prismLoaded()).toBe(false);
});

it("answers the scraper's first request with the creator's profile, billed", async () => {
  const answer = await call(mock, "/scrape/shortvideo/profile", { username: "maya.bakes" });
  expect(answer.status).toBe(200);
  expect(answer.body.data).toMatchObject({ username: "maya.bakes", display_name: "Maya Bakes" });
  expect([charged(answer), answer.body.meta.credits_charged]).toEqual([1, 1]);
});

it("answers the OAuth platform's first requests: its discovery document and a resource", async () => {
  const metadata = await platformCall(mock.url, "/.well-known/oauth-authorization-server", {});
  expect(metadata.status).toBe(200);
  expect(metadata.body.issuer).toBe(mock.url);
  expect(platformResponse("getAuthorizationServerMetadata", 200, metadata.body)).toEqual({ valid: true });
  const history = await platformCall(mock.baseUrls.platform, metricsPath, { authorization: "Bearer lazy_start" });
  expect(history.status).toBe(200);
  expect(platformResponse("getPostMetricsHistory", 200, history.body)).toEqual({ valid: true });
});

it("answers the key-based platform's first request", async () => {
  const answer = await platformCall(mock.baseUrls.platformLegacy, metricsPath, { "x-api-key": "company_lazy_start" });
  expect(answer.status).toBe(200);
  expect(legacyResponse("getPostMetricsHistory", 200, answer.body)).toEqual({ valid: true });
});

it("answers connect's first request", async () => {
  const answer = await platformCall(mock.baseUrls.connect, "/accounts", { "x-api-key": "sk_test_lazy_start" });
  expect([answer.status, answer.body.error.code]).toEqual([404, "not_found"]);
});

it("has still not loaded Prism: every answer so far was prepared by the build", () => {
  expect(prismLoaded()).toBe(false);
});

it("loads Prism for the first answer the build did not prepare, and answers it as documented", async () => {
  const missing = await call(mock, "/scrape/shortvideo/profile", { username: "creator" }, { headers: { prefer: "code=404" } });
  expect(prismLoaded()).toBe(true);
  expect([missing.status, missing.body.error, charged(missing)]).toEqual([404, "PROFILE_NOT_FOUND", 1]);
  await mock.inject({ operation: "getPostMetricsHistory", surface: "platform", status: 500 });
  const failed = await platformCall(mock.baseUrls.platform, metricsPath, { authorization: "Bearer lazy_start" });
  expect(failed.status).toBe(500);
  expect(platformResponse("getPostMetricsHistory", 500, failed.body)).toEqual({ valid: true });
  const busy = await call(mock, "/scrape/shortvideo/profile", { username: "busy" }, { key: freshKey() });
  expect([busy.status, busy.body.error, charged(busy)]).toEqual([503, "SCRAPER_SYSTEM_BUSY", 0]);
});
