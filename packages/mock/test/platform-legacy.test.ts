// The key-based platform API on the real gateway, below the scraper's /api/v1/scrape/: company keys, X-RateLimit-* on
// every answer, magic keys; every documented body checked with @content-scraper/validators/platform-legacy.
import { validateResponse } from "@content-scraper/validators/platform-legacy";
import { afterAll, beforeAll, expect, it } from "vitest";
import { legacyKeys, type RunningMock } from "../src/index.js";
import { start } from "./support.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await start();
});
afterAll(() => mock.close());

let keys = 0;
const freshKey = () => `company_key_${++keys}_${process.pid}`;

async function history(key: string | null, query = "", path = "/posts/post_1/metrics-history") {
  const response = await fetch(`${mock.baseUrls.platformLegacy}${path}${query}`, { headers: key === null ? {} : { "x-api-key": key } });
  const body = await response.json();
  for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) expect(response.headers.get(name), name).toMatch(/^\d+$/);
  if (path.endsWith("/metrics-history")) {
    expect(validateResponse("getPostMetricsHistory", response.status, body, { contentType: "application/json" })).toEqual({ valid: true });
  }
  return { status: response.status, headers: response.headers, body };
}

it("serves the metrics history to any company key, with the key's rate-limit state", async () => {
  const answer = await history(freshKey(), "?days=30&limit=100");
  expect(answer.status).toBe(200);
  expect(answer.headers.get("x-ratelimit-limit")).toBe("100");
  expect(answer.headers.get("x-ratelimit-remaining")).toBe("99");
});

it("refuses a missing key and the keys of other surfaces with 401 { error }", async () => {
  for (const key of [null, "", "scrape_live_abc", "sk_live_abc", "sk_test_abc"]) {
    const answer = await history(key);
    expect(answer.status, String(key)).toBe(401);
    expect(typeof answer.body.error).toBe("string");
  }
});

it("answers the magic keys with 401 (a key of the right shape that is invalid), 402 and 403", async () => {
  const invalid = await history(legacyKeys.invalid);
  expect([invalid.status, typeof invalid.body.error]).toEqual([401, "string"]);
  expect((await history(legacyKeys.noSubscription)).status).toBe(402);
  expect((await history(legacyKeys.restricted)).status).toBe(403);
});

it("answers 400 for a limit over 500 and 404 for an undocumented path", async () => {
  expect((await history(freshKey(), "?limit=501")).status).toBe(400);
  const missing = await history(freshKey(), "", "/leads");
  expect(missing.status).toBe(404);
  expect(typeof missing.body.error).toBe("string");
});

it("leaves /api/v1/scrape/ to the scraper", async () => {
  const response = await fetch(`${mock.baseUrls.platformLegacy}/scrape/shortvideo/profile`, {
    method: "POST",
    headers: { "x-api-key": "company_key", "content-type": "application/json" },
    body: "{}",
  });
  expect(response.status).toBe(401);
  expect(((await response.json()) as { error: string }).error).toBe("UNAUTHORIZED");
});

it("limits a key to 100 requests a minute, with Retry-After on the 429", async () => {
  const key = freshKey();
  let last = await history(key);
  for (let index = 0; index < 150 && last.status !== 429; index++) last = await history(key);
  expect(last.status).toBe(429);
  expect(Number(last.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(last.headers.get("x-ratelimit-remaining")).toBe("0");
});
