import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScraperClient } from "../src/index.js";
import { TokenBucket } from "../src/rate-limiter.js";
import { type FaultServer, ok, startFaultServer } from "./fault-server.js";

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

const profile = { username: "c", display_name: "c", follower_count: 0 };

describe("the token bucket", () => {
  it("lets a minute's allowance through as a burst, then refills continuously", async () => {
    let now = 0;
    const bucket = new TokenBucket(60, 60, () => now);
    for (let i = 0; i < 60; i++) await bucket.take();
    let served = false;
    const next = bucket.take().then(() => {
      served = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(served).toBe(false);
    now += 1000; // one token at 60 per minute
    await next;
    expect(served).toBe(true);
  });

  it("serves waiters first come, first served and drops aborted ones", async () => {
    let now = 0;
    const bucket = new TokenBucket(60, 2, () => now);
    await bucket.take();
    await bucket.take();
    const order: string[] = [];
    const controller = new AbortController();
    const a = bucket.take().then(() => order.push("a"));
    const b = bucket.take(controller.signal).then(
      () => order.push("b"),
      () => order.push("b aborted"),
    );
    const c = bucket.take().then(() => order.push("c"));
    controller.abort();
    now += 2000;
    await Promise.all([a, b, c]);
    expect(order).toEqual(["b aborted", "a", "c"]);
  });

  it("never holds more tokens than the service says remain", async () => {
    let now = 0;
    const bucket = new TokenBucket(60, 60, () => now);
    bucket.correct(0);
    let served = false;
    const next = bucket.take().then(() => {
      served = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(served).toBe(false);
    now += 1000;
    await next;
  });
});

describe("pacing across a client's calls", () => {
  it("shares one bucket between concurrent calls", async () => {
    server.script(ok(profile));
    const scraper = createScraperClient({ apiKey: "scrape_live_pace", baseUrl: server.baseUrl, rateLimit: { requestsPerMinute: 60 } });
    // A minute's allowance (60) goes at once (see the bucket's own tests); the 61st and 62nd wait for the refill of
    // one token per second, however fast the machine is.
    const started = performance.now();
    await Promise.all(Array.from({ length: 62 }, () => scraper.profile("shortvideo", "c")));
    const times = server.requests.map((request) => request.at - started).sort((a, b) => a - b);
    expect(times).toHaveLength(62);
    expect(times[60]).toBeGreaterThanOrEqual(950);
    expect(times[61]).toBeGreaterThanOrEqual(1950);
  }, 15_000); // two seconds of refill by design, and a busy machine (turbo runs every package at once) adds to it

  it("slows down when the service reports no remaining allowance", async () => {
    server.script(ok(profile, { headers: { "x-scraper-ratelimit-remaining": "0" } }));
    const scraper = createScraperClient({ apiKey: "scrape_live_pace", baseUrl: server.baseUrl, rateLimit: { requestsPerMinute: 120 } });
    await scraper.profile("shortvideo", "c");
    await scraper.profile("shortvideo", "c");
    const [first, second] = server.requests.map((request) => request.at) as [number, number];
    // 120 per minute refills a token every 500 ms; without the correction the second call would go at once.
    expect(second - first).toBeGreaterThanOrEqual(450);
  });

  it("can be turned off", async () => {
    server.script(ok(profile, { headers: { "x-scraper-ratelimit-remaining": "0" } }));
    const threeCalls = async (rateLimit: { requestsPerMinute: number } | false) => {
      const scraper = createScraperClient({ apiKey: "scrape_live_pace", baseUrl: server.baseUrl, rateLimit });
      const started = performance.now();
      for (let i = 0; i < 3; i++) await scraper.profile("shortvideo", "c");
      return performance.now() - started;
    };
    // Paced at 60 per minute with nothing remaining, the 2nd and 3rd calls wait a second each; unpaced, none waits.
    const paced = await threeCalls({ requestsPerMinute: 60 });
    const unpaced = await threeCalls(false);
    expect(paced).toBeGreaterThanOrEqual(1950);
    expect(unpaced).toBeLessThan(paced - 1000);
  }, 15_000);
});
