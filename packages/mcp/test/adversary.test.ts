// A scripted agent (no model) that tries to overspend in every way it can: parallel bursts, audience loops at 25
// credits, walks started over and over and the same resume token sent twice at once, billed not-founds, refunded
// failures retried at once against the advice, rate limits, asking again and again after a 402, and several sessions
// at a time (over Streamable HTTP, and as separate stdio servers sharing one allowance through Redis). After each run
// the sandbox's own ledger must show no more credits charged than --max-credits, and each session no more than its own.
import { type RunningMock, startMock } from "@content-scraper/mock";
import { startRateProxy } from "@content-scraper/test-server/rate-proxy";
import { startRedis } from "@content-scraper/test-server/redis";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Answer, charged, httpClient, httpServer, secretKey, stdioClient } from "./helpers.js";

let mock: RunningMock;
let redis: Awaited<ReturnType<typeof startRedis>>;
let totalCalls = 0;
beforeAll(async () => {
  [mock, redis] = await Promise.all([startMock({ port: 0, timeScale: 0, requestsPerMinute: 1_000_000 }), startRedis()]);
});
afterAll(async () => {
  console.log(`adversarial tool calls over all runs: ${totalCalls}`);
  expect(totalCalls).toBeGreaterThanOrEqual(1000);
  await Promise.all([mock?.close(), redis?.stop()]);
});

const fast = ["--requests-per-minute", "1000000"];

/** One agent session: every call it makes, what the answers say it was charged, and how each ended. */
class Adversary {
  calls = 0;
  chargedByAnswers = 0;
  outcomes = new Map<string, number>();
  constructor(readonly client: Client) {}

  async call(name: string, args: Record<string, unknown>): Promise<Answer> {
    this.calls++;
    totalCalls++;
    const result = (await this.client.callTool({ name, arguments: args })) as CallToolResult;
    const answer = result.structuredContent as Answer;
    this.chargedByAnswers += answer.walk?.creditsCharged ?? answer.meta?.creditsCharged ?? answer.error?.creditsCharged ?? 0;
    const outcome = answer.error ? `${answer.error.kind}:${answer.error.code ?? answer.error.field ?? ""}` : "ok";
    this.outcomes.set(outcome, (this.outcomes.get(outcome) ?? 0) + 1);
    return answer;
  }

  burst = (size: number) => Promise.all(Array.from({ length: size }, (_, i) => this.call("shortvideoProfile", { username: `creator${i}` })));

  async audienceLoop(times: number) {
    for (let i = 0; i < times; i++) await this.call(i % 2 ? "photoshareAudience" : "shortvideoAudience", { username: "creator" });
    await Promise.all(Array.from({ length: times }, () => this.call("shortvideoAudience", { username: "creator" })));
  }

  async walks(times: number) {
    for (let i = 0; i < times; i++) {
      const first = await this.call("walk", { operation: "shortvideoPosts", arguments: { username: "maya.bakes" }, maxPages: 20, fields: ["id"] });
      // The same token twice at once, then a third time: each page is billed, and each is held against the allowance.
      if (first.resume) await Promise.all([0, 1, 2].map(() => this.call("walk", { resume: first.resume, maxPages: 20, maxItems: 5 })));
    }
  }

  async misbehave(times: number) {
    for (let i = 0; i < times; i++) {
      await this.call("microblogProfile", { username: "notfound" }); // billed 404
      await this.call("microblogProfile", { username: "upstreamerror" }); // refunded; retried at once, against retryAfterMs
      await this.call("microblogProfile", { username: "upstreamerror" });
      await this.call("shortvideoAudience", { username: "notfound" }); // billed at 25
      await this.call("shortvideoProfile", { username: "not a handle" }); // refused before sending
      await this.call("quote", { calls: [{ tool: "shortvideoAudience", times: 3 }] });
    }
  }

  async rateLimited() {
    await Promise.all([this.call("videositeProfile", { username: "ratelimited" }), this.call("videositeProfile", { username: "creator" })]);
  }

  async everything() {
    await Promise.all([this.burst(20), this.audienceLoop(4), this.walks(3), this.misbehave(4)]);
    await this.rateLimited();
    await this.burst(30);
    await this.audienceLoop(3);
    await this.walks(2);
  }
}

/** The sandbox's ledger must hold the allowance, to the credit, and the allowance must have been spent, not dodged. */
async function assertWithin(maxCredits: number, adversaries: Adversary[]) {
  const ledger = await charged(mock);
  const calls = adversaries.reduce((sum, adversary) => sum + adversary.calls, 0);
  const outcomes = adversaries.flatMap((adversary) => [...adversary.outcomes]).reduce((all, [outcome, count]) => all.set(outcome, (all.get(outcome) ?? 0) + count), new Map<string, number>());
  console.log(`ledger ${ledger} of --max-credits ${maxCredits}, ${calls} tool calls, ${(await mock.log()).length} requests sent:`, Object.fromEntries(outcomes));
  expect(ledger).toBeLessThanOrEqual(maxCredits);
  expect(ledger).toBeGreaterThan(maxCredits - 25);
  expect(adversaries.reduce((sum, adversary) => sum + adversary.chargedByAnswers, 0)).toBe(ledger);
  expect(outcomes.get("allowance:")).toBeGreaterThan(0);
}

describe("an agent that tries to overspend in every way", () => {
  it("six concurrent sessions over Streamable HTTP: never past the server's allowance, nor any session past its own", async () => {
    await mock.reset();
    const server = await httpServer(["--base-url", mock.baseUrls.scraper as string, "--max-credits", "150", "--session-max-credits", "60", ...fast]);
    const sessions = await Promise.all(Array.from({ length: 6 }, () => httpClient(server.url)));
    try {
      const adversaries = sessions.map(({ client }) => new Adversary(client));
      await Promise.all(adversaries.map((adversary) => adversary.everything()));
      await assertWithin(150, adversaries);
      for (const adversary of adversaries) expect(adversary.chargedByAnswers).toBeLessThanOrEqual(60);
    } finally {
      await Promise.all(sessions.map((session) => session.close()));
      await server.stop();
    }
    expect(server.stderr()).not.toContain(secretKey);
  });

  it("three stdio servers sharing one allowance through Redis: together never past it", async () => {
    await mock.reset();
    const args = ["--base-url", mock.baseUrls.scraper as string, "--max-credits", "90", "--redis", redis.url, "--allowance-key", "adversary", ...fast];
    const servers = await Promise.all(Array.from({ length: 3 }, () => stdioClient(args)));
    try {
      const adversaries = servers.map(({ client }) => new Adversary(client));
      await Promise.all(adversaries.map((adversary) => adversary.everything()));
      await assertWithin(90, adversaries);
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  });

  it("asking again and again after a 402, then after a top-up: the allowance still holds", async () => {
    await mock.reset();
    await mock.setBalance(secretKey, 7);
    const { client, close } = await stdioClient(["--base-url", mock.baseUrls.scraper as string, "--max-credits", "40", ...fast]);
    try {
      const adversary = new Adversary(client);
      await adversary.burst(10);
      for (let i = 0; i < 60; i++) await adversary.call("shortvideoProfile", { username: "creator" });
      await Promise.all(Array.from({ length: 40 }, () => adversary.call("shortvideoAudience", { username: "creator" })));
      expect(adversary.outcomes.get("api:INSUFFICIENT_SCRAPER_CREDITS")).toBeGreaterThanOrEqual(60);
      await mock.setBalance(secretKey, 1000);
      await adversary.everything();
      await assertWithin(40, [adversary]);
    } finally {
      await close();
    }
  });
});

describe("an account charged its own rate (a proxy in front of the sandbox rewrites the charge)", () => {
  it.each([3, 25])("at %i a call, 50 parallel calls pass --max-credits 30 by one call's difference at most", async (rate) => {
    await mock.reset();
    const proxy = await startRateProxy(mock.baseUrls.scraper as string, rate);
    const { client, close } = await stdioClient(["--base-url", proxy.baseUrl, "--max-credits", "30", ...fast]);
    try {
      const adversary = new Adversary(client);
      await adversary.burst(50);
      expect(proxy.charged).toBeLessThanOrEqual(30 + rate - 1);
      expect(adversary.chargedByAnswers).toBe(proxy.charged);
      expect(adversary.outcomes.get("allowance:")).toBeGreaterThan(0);
      // What it learned holds for what follows: one call at a time cannot pass it either.
      for (let i = 0; i < 5; i++) await adversary.call("shortvideoProfile", { username: "creator" });
      expect(proxy.charged).toBeLessThanOrEqual(30 + rate - 1);
    } finally {
      await close();
      await proxy.close();
    }
  });

  it("a request that never left the machine (the base URL refuses connections) keeps nothing of the allowance", async () => {
    const proxy = await startRateProxy(mock.baseUrls.scraper as string, 1);
    const dead = proxy.baseUrl;
    await proxy.close();
    const { client, close } = await stdioClient(["--base-url", dead, "--max-credits", "5", ...fast]);
    try {
      const adversary = new Adversary(client);
      for (let i = 0; i < 5; i++) {
        const answer = await adversary.call("shortvideoProfile", { username: "creator" });
        expect(answer.error).toMatchObject({ kind: "ScraperConnectionError", inFlight: false, billed: false, retryable: true });
        expect(answer.allowance).toMatchObject({ left: 5 });
      }
    } finally {
      await close();
    }
  });
});
