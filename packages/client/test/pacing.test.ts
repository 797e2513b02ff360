import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createScraperClient } from "../src/index.js";
import { memoryRateLimitStore } from "../src/index.js";
import { type FaultServer, ok, startFaultServer } from "./fault-server.js";

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

const profile = { username: "c", display_name: "c", follower_count: 0 };

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

  it("shares one bucket between clients given the same store, and counts the wait in usage", async () => {
    // Every answer says nothing remains: one client's answer empties the bucket both share, so at 60 a minute each
    // later call, whichever client makes it, waits about a second for its token.
    server.script(ok(profile, { headers: { "x-scraper-ratelimit-remaining": "0" } }));
    const store = memoryRateLimitStore();
    const make = () => createScraperClient({ apiKey: "scrape_live_pace", baseUrl: server.baseUrl, rateLimit: { requestsPerMinute: 60, store } });
    const [a, b] = [make(), make()];
    await a.profile("shortvideo", "c");
    expect(a.usage.pacingWaitMs).toBe(0);
    await b.profile("shortvideo", "c");
    await a.profile("shortvideo", "c");
    const [t1, t2, t3] = server.requests.map((request) => request.at) as [number, number, number];
    // The bound leaves room for delivery jitter on a busy machine (unshared, b's first call would go at once).
    expect(t2 - t1).toBeGreaterThanOrEqual(800);
    expect(t3 - t2).toBeGreaterThanOrEqual(800);
    expect(b.usage.pacingWaitMs).toBeGreaterThanOrEqual(800);
  }, 15_000);

  it("a 429's Retry-After pauses every call sharing the bucket", async () => {
    server.script(
      (_request, response) => {
        response.writeHead(429, { "content-type": "application/json", "retry-after": "1", "x-scraper-credits-charged": "0" });
        response.end(JSON.stringify({ error: "SCRAPER_RATE_LIMITED", message: "slow down", request_id: "req_429" }));
      },
      ok(profile),
    );
    const store = memoryRateLimitStore();
    const make = () => createScraperClient({ apiKey: "scrape_live_pace", baseUrl: server.baseUrl, rateLimit: { requestsPerMinute: 6000, store } });
    const [a, b] = [make(), make()];
    const first = a.profile("shortvideo", "c");
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50)); // the 429 has landed and paused the shared bucket
    const second = b.profile("shortvideo", "c");
    await Promise.all([first, second]);
    const [, retried, other] = server.requests.map((request) => request.at - (server.requests[0]?.at ?? 0));
    expect(retried).toBeGreaterThanOrEqual(950);
    expect(other).toBeGreaterThanOrEqual(950);
  }, 15_000);
});
