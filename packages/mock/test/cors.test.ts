// A page in a browser may call the sandbox (the docs' "try it" console): preflights answered on every surface, and
// every header a client reads exposed to the page.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningMock } from "../src/index.js";
import { start } from "./support.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await start();
});
afterAll(() => mock.close());

const origin = "http://docs.example";
const exposed = (response: Response) => (response.headers.get("access-control-expose-headers") ?? "").toLowerCase().split(/,\s*/);

it.each([
  ["scraper", "/api/v1/scrape/shortvideo/profile", "POST", "content-type, x-api-key"],
  ["OAuth platform", "/api/oauth/v1/invoices", "POST", "authorization, content-type, idempotency-key"],
  ["key-based platform", "/api/v1/posts/p1/metrics-history", "GET", "x-api-key"],
  ["connect", "/api/embed/accounts", "GET", "x-api-key"],
  ["discovery", "/.well-known/oauth-authorization-server", "GET", "accept"],
])("answers a preflight on the %s surface", async (_surface, path, method, headers) => {
  const response = await fetch(`${mock.url}${path}`, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": method, "access-control-request-headers": headers },
  });
  expect(response.status).toBe(204);
  expect(response.headers.get("access-control-allow-origin")).toBe("*");
  expect(response.headers.get("access-control-allow-methods")).toBe(method);
  expect(response.headers.get("access-control-allow-headers")).toBe(headers);
});

it("exposes the scraper's billing and rate-limit headers, and Retry-After on a 429", async () => {
  const call = (username: string) =>
    fetch(`${mock.baseUrls.scraper}/scrape/shortvideo/profile`, {
      method: "POST",
      headers: { origin, "content-type": "application/json", "x-api-key": "scrape_live_cors" },
      body: JSON.stringify({ username }),
    });
  const ok = await call("creator");
  expect(ok.headers.get("access-control-allow-origin")).toBe("*");
  for (const name of ["x-scraper-credits-charged", "x-scraper-credits-remaining", "x-scraper-ratelimit-limit", "x-scraper-ratelimit-remaining", "x-scraper-ratelimit-reset"]) {
    expect(exposed(ok)).toContain(name);
  }
  expect(exposed(await call("ratelimited"))).toContain("retry-after");
});

it("exposes WWW-Authenticate and the rate-limit headers of the OAuth API", async () => {
  const response = await fetch(`${mock.baseUrls.platform}/posts/p1/metrics-history`, { headers: { origin } });
  expect(response.status).toBe(401);
  expect(exposed(response)).toContain("www-authenticate");
  const ok = await fetch(`${mock.baseUrls.platform}/posts/p1/metrics-history`, { headers: { origin, authorization: "Bearer cors" } });
  expect(exposed(ok)).toEqual(expect.arrayContaining(["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]));
});

it("answers an OPTIONS that is no preflight as the surface does", async () => {
  const response = await fetch(`${mock.baseUrls.scraper}/scrape/shortvideo/profile`, { method: "OPTIONS", headers: { "x-api-key": "scrape_live_cors" } });
  expect(response.status).toBe(404);
  expect(response.headers.get("allow")).toBe("POST");
});
