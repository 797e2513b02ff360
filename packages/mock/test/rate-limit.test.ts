// A token bucket per key, as the reference describes the service's: X-Scraper-RateLimit-* on every 200 and 429.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimit } from "../src/generated/scraper.operations.js";
import type { RunningMock } from "../src/index.js";
import { call, charged, freshKey, start } from "./support.js";

describe("the default rate limit", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await start();
  });
  afterAll(() => mock.close());

  it("allows a burst of the description's limit per key, then answers 429 with Retry-After", async () => {
    const key = freshKey();
    const burst = (rateLimit.requestsPerMinute * rateLimit.burstSeconds) / 60;
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: burst }, () => call(mock, "/scrape/shortvideo/profile", { username: "creator" }, { key })));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    for (const answer of answers) expect(Number(answer.headers.get("x-scraper-ratelimit-remaining"))).toBeLessThan(burst);

    // The bucket refills continuously while the burst runs: allow for what came back meanwhile.
    let limited = await call(mock, "/scrape/shortvideo/profile", { username: "creator" }, { key });
    let extra = 0;
    while (limited.status === 200) {
      extra++;
      limited = await call(mock, "/scrape/shortvideo/profile", { username: "creator" }, { key });
    }
    expect(extra).toBeLessThanOrEqual(1 + ((Date.now() - started) / 60_000) * rateLimit.requestsPerMinute);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe("SCRAPER_RATE_LIMITED");
    expect(charged(limited)).toBe(0);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get("x-scraper-ratelimit-limit")).toBe(String(rateLimit.requestsPerMinute));
    expect(limited.headers.get("x-scraper-ratelimit-remaining")).toBe("0");
    expect(Number(limited.headers.get("x-scraper-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);

    // Another key has its own bucket.
    expect((await call(mock, "/scrape/shortvideo/profile", { username: "creator" })).status).toBe(200);
  });
});

describe("a configured rate limit", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await start({ requestsPerMinute: 3 });
  });
  afterAll(() => mock.close());

  it("uses the configured size", async () => {
    const key = freshKey();
    const statuses = [];
    for (let index = 0; index < 4; index++) statuses.push((await call(mock, "/scrape/shortvideo/profile", { username: "creator" }, { key })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("does not count SCRAPER_SYSTEM_BUSY against the limit", async () => {
    const key = freshKey();
    for (let index = 0; index < 5; index++) {
      const busy = await call(mock, "/scrape/shortvideo/profile", { username: "busy" }, { key });
      expect(busy.status).toBe(503);
      expect(busy.headers.get("retry-after")).toMatch(/^\d+$/);
    }
    expect((await call(mock, "/scrape/shortvideo/profile", { username: "creator" }, { key })).headers.get("x-scraper-ratelimit-remaining")).toBe("2");
  });
});
