// The connect API on the real gateway: no documented path, so every authenticated request answers the sandbox's 404; the
// key's prefix selects the environment, a scraper key is refused, and the general limit answers 429 with Retry-After.
import { afterAll, beforeAll, expect, it } from "vitest";
import { connectKeySuffixes, type RunningMock } from "../src/index.js";
import { start } from "./support.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await start();
});
afterAll(() => mock.close());

let keys = 0;
async function call(key: string | null, path = "/accounts") {
  const response = await fetch(`${mock.baseUrls.connect}${path}`, { headers: key === null ? {} : { "x-api-key": key } });
  // biome-ignore lint/suspicious/noExplicitAny: the sandbox's envelope, read field by field.
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

it.each([
  ["sk_test_", "sandbox"],
  ["sk_live_", "production"],
])("answers a %s key with the sandbox's 404 in its environment (%s)", async (prefix, environment) => {
  const answer = await call(`${prefix}key_${++keys}`, "/accounts/acct_1");
  expect(answer.status).toBe(404);
  expect(answer.body.error).toMatchObject({ code: "not_found", environment });
  expect(answer.body.error.requestId).toMatch(/^req_/);
  expect(answer.headers.get("x-sandbox-environment")).toBe(environment);
});

it("refuses a scraper key, a missing key, a bare prefix and an unknown key with 401", async () => {
  for (const key of ["scrape_live_abc", null, "sk_test_", "company_key"]) {
    const answer = await call(key);
    expect(answer.status, String(key)).toBe(401);
    expect(answer.body.error.code).toBe("unauthorized");
  }
});

it.each(["sk_test_", "sk_live_"])("answers the magic %s keys: invalid with 401, ratelimited with 429 and Retry-After at once", async (prefix) => {
  const invalid = await call(`${prefix}${connectKeySuffixes.invalid}`);
  expect([invalid.status, invalid.body.error.code]).toEqual([401, "unauthorized"]);
  const limited = await call(`${prefix}${connectKeySuffixes.rateLimited}`);
  expect([limited.status, limited.body.error.code]).toEqual([429, "rate_limited"]);
  expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
});

it("limits a key to 100 requests a minute, with Retry-After on the 429", async () => {
  const key = `sk_test_limited_${process.pid}`;
  let last = await call(key);
  for (let index = 0; index < 150 && last.status !== 429; index++) last = await call(key);
  expect(last.status).toBe(429);
  expect(last.body.error.code).toBe("rate_limited");
  expect(Number(last.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
});
