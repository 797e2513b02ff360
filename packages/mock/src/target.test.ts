import { expect, it } from "vitest";
import { Target } from "./target.js";

// A plain path is taken as it is; anything else is parsed. Either way, what the gateway reads is what the URL parser reads.
it.each([
  "/api/v1/scrape/shortvideo/profile",
  "/",
  "/api/v1/",
  "/api/v1/scrape/shortvideo/posts~x_y-z.json",
  "/api/./v1/../v1/scrape",
  "/api/v1/..",
  "/.well-known/oauth-authorization-server",
  "//evil.example/api/v1",
  "/api\\v1",
  "/api/v1/%2e%2e/x",
  "/api/v1/caf\u00e9",
  "/api/v1/a b",
  "/api/oauth/v1/webhooks/wh_1/deliveries?limit=7&cursor=a%20b",
  "/api/v1?",
  "*",
  "",
])("reads %j as the URL parser does", (raw) => {
  const url = new URL(raw, "http://gateway");
  const target = new Target(raw);
  expect(target.path).toBe(url.pathname);
  expect([...target.query]).toEqual([...url.searchParams]);
});
