import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createScraperClient,
  memoryBudgetStore,
  type RequestEvent,
  type ResponseEvent,
  type RetryEvent,
  ScraperApiError,
  ScraperBudgetError,
  ScraperConnectionError,
  type ScraperHooks,
  ScraperInputError,
  ScraperStoreError,
} from "../src/index.js";
import { type FaultServer, fail, ok, plain, startFaultServer } from "./fault-server.js";
import { scraperApi } from "../src/api.js";

const apiKey = "scrape_live_pipeline_0123456789";
let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

const profile = { username: "c", display_name: "c", follower_count: 1 };
const page = (ids: string[], next?: string) => ({ posts: ids.map((id) => ({ id, platform: "shortvideo" })), profile_pictures: {}, ...(next ? { next_cursor: next } : {}) });

/** Hooks that record every event, in order, as `kind name attempt`. */
function recorder() {
  const events: string[] = [];
  const hooks: ScraperHooks = {
    onRequest: (event: RequestEvent) => events.push(`request ${event.name} ${event.attempt}`),
    onResponse: (event: ResponseEvent) => events.push(`response ${event.name} ${event.attempt} ${event.status}${event.final ? " final" : ""}`),
    onRetry: (event: RetryEvent) => events.push(`retry ${event.name} ${event.attempt} ${event.reason}`),
    onError: (event) => events.push(`error ${event.name} ${event.error.name}`),
  };
  return { events, hooks };
}

const client = (options: Parameters<typeof createScraperClient>[0] = {}) =>
  createScraperClient({ apiKey, baseUrl: server.baseUrl, rateLimit: false, retry: { baseDelayMs: 5, maxDelayMs: 20 }, ...options });

describe("hooks see every request, whichever door", () => {
  it("every attempt of a method, retries included, and the error it ends with", async () => {
    server.script(fail(502, "UPSTREAM_ERROR"), fail(502, "UPSTREAM_ERROR"), fail(404, "PROFILE_NOT_FOUND"));
    const { events, hooks } = recorder();
    await expect(client({ hooks }).profile("shortvideo", "gone")).rejects.toBeInstanceOf(ScraperApiError);
    expect(events).toEqual([
      "request shortvideoProfile 1",
      "response shortvideoProfile 1 502",
      "retry shortvideoProfile 1 UPSTREAM_ERROR",
      "request shortvideoProfile 2",
      "response shortvideoProfile 2 502",
      "retry shortvideoProfile 2 UPSTREAM_ERROR",
      "request shortvideoProfile 3",
      "response shortvideoProfile 3 404 final",
      "error shortvideoProfile ScraperApiError",
    ]);
  });

  it("every page of a walk and every api call; several hook objects are called in order", async () => {
    server.script(ok(page(["1"], "c1")), ok(page(["2"])), ok(profile));
    const first = recorder();
    const second = recorder();
    const scraper = client({ hooks: [first.hooks, second.hooks] });
    for await (const _post of scraper.walkPosts("shortvideo", "creator"));
    await scraperApi(scraper).POST("/scrape/videosite/profile", { body: { username: "c" } });
    const expected = [
      "request shortvideoPosts 1",
      "response shortvideoPosts 1 200 final",
      "request shortvideoPosts 1",
      "response shortvideoPosts 1 200 final",
      "request videositeProfile 1",
      "response videositeProfile 1 200 final",
    ];
    expect(first.events).toEqual(expected);
    expect(second.events).toEqual(expected);
  });

  it("hook events carry the operation and platform, never the key", async () => {
    server.script(ok(profile));
    const seen: unknown[] = [];
    await client({ hooks: { onRequest: (event) => seen.push(event), onResponse: (event) => seen.push(event) } }).profile("microblog", "c");
    expect(seen[0]).toMatchObject({ details: { operationId: "microblogProfile", platform: "microblog" }, method: "POST", pacingWaitMs: 0 });
    expect(seen[1]).toMatchObject({ status: 200, final: true });
    for (const event of seen) expect(inspect(event, { depth: 5 })).not.toContain(apiKey);
  });

  it("refuses a hook or a sleep that is not a function, naming it", () => {
    expect(() => client({ hooks: { onRequest: "log" as never } })).toThrow(expect.objectContaining({ field: "hooks.onRequest" }));
    expect(() => client({ sleep: 5 as never })).toThrow(expect.objectContaining({ field: "sleep" }));
  });
});

describe("per-call options and derived clients", () => {
  it("maxRetries and headers per call; a header carrying a key is refused, naming it, and nothing is sent", async () => {
    server.script(fail(502, "UPSTREAM_ERROR"));
    await expect(client().profile("shortvideo", "c", { headers: { "X-Api-Key": "scrape_live_other" } })).rejects.toMatchObject({
      name: "ScraperInputError",
      field: "headers.X-Api-Key",
    });
    expect(() => client().withOptions({ headers: { "x-api-key": "scrape_live_other" } })).toThrow(ScraperInputError);
    expect(server.requests).toHaveLength(0);
    await expect(client().profile("shortvideo", "c", { maxRetries: 1, headers: { "x-trace": "t1" } })).rejects.toBeInstanceOf(ScraperApiError);
    expect(server.requests).toHaveLength(2);
    expect(server.requests.map((request) => [request.headers["x-trace"], request.headers["x-api-key"]])).toEqual([
      ["t1", apiKey],
      ["t1", apiKey],
    ]);
  });

  it("withOptions derives a client with other defaults that shares the ledger", async () => {
    server.script(fail(502, "UPSTREAM_ERROR"));
    const base = client();
    const once = base.withOptions({ maxRetries: 0, headers: { "x-job": "nightly" } });
    await expect(once.profile("shortvideo", "c")).rejects.toBeInstanceOf(ScraperApiError);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers["x-job"]).toBe("nightly");
    expect(base.usage).toMatchObject({ requests: 1, attempts: 1, retries: 0 });
    expect(() => base.withOptions({ timeoutMs: -1 })).toThrow(ScraperInputError);
  });

  it("a result carries status, headers, attempts and elapsed time beside data and meta", async () => {
    server.script(fail(502, "UPSTREAM_ERROR"), ok(profile));
    const { data, meta, response } = await client().profile("shortvideo", "c");
    expect(data).toEqual(profile);
    expect(meta.requestId).toBe("req_ok");
    expect(response.status).toBe(200);
    expect(response.attempts).toBe(2);
    expect(response.headers.get("x-scraper-credits-charged")).toBe("1");
    expect(response.elapsedMs).toBeGreaterThan(0);
  });
});

describe("the logger", () => {
  it("has a line for every call's outcome: operation, identifier, status, duration, credits, request id", async () => {
    server.script(ok(profile, { charged: 1 }));
    const lines: Array<[string, Record<string, unknown> | undefined]> = [];
    await client({ logger: { info: (message, details) => lines.push([message, details]) } }).profile("shortvideo", "maya.bakes");
    expect(lines).toHaveLength(1);
    const [message, details] = lines[0] as [string, Record<string, unknown>];
    expect(message).toMatch(/^scraper: shortvideoProfile answered 200 in \d+ ms, 1 credit\(s\)$/);
    expect(details).toMatchObject({ operationId: "shortvideoProfile", platform: "shortvideo", identifier: "maya.bakes", status: 200, creditsCharged: 1, requestId: "req_ok", attempts: 1 });
    expect(typeof details.durationMs).toBe("number");
    expect(JSON.stringify(lines)).not.toContain(apiKey);
  });
});

describe("the ledger", () => {
  it("counts credits, requests, attempts and retries over every door", async () => {
    server.script(ok(profile, { charged: 1 }), fail(502, "UPSTREAM_ERROR"), ok(profile, { charged: 1 }), fail(404, "PROFILE_NOT_FOUND", {}, { "x-scraper-credits-charged": "1" }), ok(profile, { charged: 3 }));
    const scraper = client();
    await scraper.profile("shortvideo", "a");
    await scraper.profile("shortvideo", "b");
    await expect(scraper.profile("shortvideo", "gone")).rejects.toBeInstanceOf(ScraperApiError);
    await scraperApi(scraper).POST("/scrape/shortvideo/profile", { body: { username: "c" } });
    expect(scraper.usage).toEqual({ creditsCharged: 1 + 1 + 1 + 3, requests: 4, attempts: 5, retries: 1, pacingWaitMs: 0 });
  });

  it("never counts an answer that is not the service's as billed: a framework 404, a proxy's page", async () => {
    const frameworkNotFound = plain(404, "Cannot POST /api/v1/scrape/shortvideo/profile");
    server.script(frameworkNotFound);
    const scraper = client();
    const error = (await scraper.profile("shortvideo", "c").catch((thrown: unknown) => thrown)) as ScraperApiError;
    expect(error).toMatchObject({ status: 404, code: undefined, billed: false, creditsCharged: undefined });
    server.script(fail(404, "PROFILE_NOT_FOUND", { request_id: undefined }, { "x-scraper-credits-charged": "1" }));
    const anonymous = (await scraper.profile("shortvideo", "c").catch((thrown: unknown) => thrown)) as ScraperApiError;
    expect(anonymous).toMatchObject({ code: "PROFILE_NOT_FOUND", billed: false });
    expect(scraper.usage.creditsCharged).toBe(0);
  });
});

describe("a credit budget shared by every call", () => {
  it("refuses the call that would pass it before sending, with a typed error; audience reserves 25", async () => {
    server.script(ok(profile, { charged: 1 }));
    const scraper = client({ budget: { maxCredits: 25 } });
    await scraper.profile("shortvideo", "a");
    const error = (await scraper.audience("shortvideo", "a").catch((thrown: unknown) => thrown)) as ScraperBudgetError;
    expect(error).toBeInstanceOf(ScraperBudgetError);
    expect(error.budget).toEqual({ maxCredits: 25, spent: 1, reserved: 0, needed: 25 });
    expect(server.requests).toHaveLength(1);
    expect(await scraper.budgetState()).toEqual({ maxCredits: 25, spent: 1, reserved: 0 });
  });

  it("holds across concurrent calls, walks and derived clients: spent plus reserved never passes it", async () => {
    server.script(async (request, response) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const { cursor } = JSON.parse(request.body) as { cursor?: string };
      ok(page([cursor ?? "0"], `${Number(cursor ?? 0) + 1}`))(request, response);
    });
    const scraper = client({ budget: { maxCredits: 10 } });
    const derived = scraper.withOptions({ timeoutMs: 5_000 });
    const walks = [scraper.walkPosts("shortvideo", "a"), derived.walkPosts("shortvideo", "b"), scraper.walkPosts("shortvideo", "c")];
    const outcomes = await Promise.allSettled(walks.map(async (walk) => {
      for await (const _post of walk);
    }));
    expect(outcomes.every((outcome) => outcome.status === "rejected" && outcome.reason instanceof ScraperBudgetError)).toBe(true);
    expect(server.requests).toHaveLength(10);
    expect(scraper.usage.creditsCharged).toBe(10);
    expect(walks.reduce((sum, walk) => sum + walk.state.creditsCharged, 0)).toBe(10);
    expect(await derived.budgetState()).toEqual({ maxCredits: 10, spent: 10, reserved: 0 });
  });

  it("settles a refunded error at zero, and shares a store between clients", async () => {
    server.script(fail(502, "UPSTREAM_ERROR"));
    const store = memoryBudgetStore();
    const a = client({ budget: { maxCredits: 1, store }, retry: { maxRetries: 0 } });
    const b = client({ budget: { maxCredits: 1, store } });
    await expect(a.profile("shortvideo", "c")).rejects.toMatchObject({ code: "UPSTREAM_ERROR" });
    server.script(ok(profile, { charged: 1 }));
    await b.profile("shortvideo", "c");
    await expect(a.profile("shortvideo", "c")).rejects.toBeInstanceOf(ScraperBudgetError);
  });

  it("a store that fails (a Redis out of reach) fails the call with a ScraperStoreError, nothing sent", async () => {
    server.script(ok(profile));
    const down = () => Promise.reject(new Error("connection refused"));
    const budgetDown = client({ budget: { maxCredits: 10, store: { reserve: down, settle: down, state: down } } });
    const budgetError = (await budgetDown.profile("shortvideo", "c").catch((thrown: unknown) => thrown)) as ScraperStoreError;
    expect(budgetError).toBeInstanceOf(ScraperStoreError);
    expect(budgetError).toMatchObject({ store: "budget", operationId: "shortvideoProfile", cause: new Error("connection refused") });
    const rateDown = client({ rateLimit: { requestsPerMinute: 60, store: { take: down, correct: down, pause: down } } });
    const rateError = (await rateDown.profile("shortvideo", "c").catch((thrown: unknown) => thrown)) as ScraperStoreError;
    expect(rateError).toMatchObject({ name: "ScraperStoreError", store: "rateLimit" });
    expect(server.requests).toHaveLength(0);
  });

  it("withBudget: a session's allowance inside a server's, both held before sending; a refusal leaves the other as it was", async () => {
    server.script(ok(profile, { charged: 1 }));
    const server25 = client({ budget: { maxCredits: 25 } });
    const sessionA = server25.withBudget({ maxCredits: 3 });
    const sessionB = server25.withBudget({ maxCredits: 30 });
    for (let i = 0; i < 3; i++) await sessionA.profile("shortvideo", "a");
    // The session's own budget refuses the fourth: the server's is not touched by the refusal.
    const refused = (await sessionA.profile("shortvideo", "a").catch((thrown: unknown) => thrown)) as ScraperBudgetError;
    expect(refused).toBeInstanceOf(ScraperBudgetError);
    expect(refused.budget).toEqual({ maxCredits: 3, spent: 3, reserved: 0, needed: 1 });
    expect(await sessionA.budgetState()).toEqual({ maxCredits: 3, spent: 3, reserved: 0 });
    expect(await server25.budgetState()).toEqual({ maxCredits: 25, spent: 3, reserved: 0 });
    // The server's budget refuses what the other session's would take: 3 + 25 > 25; nothing is left held anywhere.
    const outer = (await sessionB.audience("shortvideo", "b").catch((thrown: unknown) => thrown)) as ScraperBudgetError;
    expect(outer.budget).toEqual({ maxCredits: 25, spent: 3, reserved: 0, needed: 25 });
    expect(await sessionB.budgetState()).toEqual({ maxCredits: 30, spent: 0, reserved: 0 });
    // A derived client keeps the budgets it was derived with.
    await expect(sessionA.withOptions({ maxRetries: 0 }).profile("shortvideo", "a")).rejects.toBeInstanceOf(ScraperBudgetError);
    expect(server.requests).toHaveLength(3);
  });

  it("withBudget: concurrent sessions never take the server's budget past its limit", async () => {
    server.script(async (request, response) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      ok(profile, { charged: 1 })(request, response);
    });
    const shared = client({ budget: { maxCredits: 7 } });
    const sessions = Array.from({ length: 4 }, () => shared.withBudget({ maxCredits: 3 }));
    const outcomes = await Promise.allSettled(sessions.flatMap((session) => Array.from({ length: 5 }, () => session.profile("shortvideo", "c"))));
    const sent = outcomes.filter((outcome) => outcome.status === "fulfilled").length;
    expect(outcomes.every((outcome) => outcome.status === "fulfilled" || outcome.reason instanceof ScraperBudgetError)).toBe(true);
    expect(server.requests).toHaveLength(sent);
    expect(sent).toBeLessThanOrEqual(7);
    expect(await shared.budgetState()).toEqual({ maxCredits: 7, spent: sent, reserved: 0 });
    const spent = await Promise.all(sessions.map(async (session) => (await session.budgetState())?.spent ?? 0));
    expect(spent.every((credits) => credits <= 3)).toBe(true);
    expect(spent.reduce((sum, credits) => sum + credits, 0)).toBe(sent);
    // What a refusal released is there for the next call: the server's budget fills up to its limit.
    const more = await Promise.allSettled(sessions.map((session) => session.profile("shortvideo", "c")));
    expect((await shared.budgetState())?.spent).toBe(Math.min(7, sent + more.filter((outcome) => outcome.status === "fulfilled").length));
  });

  /** Answers every call after `ms`, charging `rate` credits (an account's own rate). */
  const charging = (rate: number, ms = 20) => async (request: Parameters<ReturnType<typeof ok>>[0], response: Parameters<ReturnType<typeof ok>>[1]) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    const { cursor } = JSON.parse(request.body || "{}") as { cursor?: string };
    const data = request.path.endsWith("/posts") ? page([cursor ?? "0"], `${Number(cursor ?? 0) + 1}`) : profile;
    ok(data, { charged: rate })(request, response);
  };

  it.each([3, 25])("at an account rate of %i, 50 parallel calls pass the cap by one call's difference at most", async (rate) => {
    server.script(charging(rate));
    const scraper = client({ budget: { maxCredits: 30 } });
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => scraper.profile("shortvideo", "c")));
    const charged = server.requests.length * rate;
    expect(outcomes.every((outcome) => outcome.status === "fulfilled" || outcome.reason instanceof ScraperBudgetError)).toBe(true);
    expect(charged).toBeLessThanOrEqual(30 + rate - 1);
    expect(charged).toBeGreaterThan(30 - rate);
    expect(await scraper.budgetState()).toEqual({ maxCredits: 30, spent: charged, reserved: 0 });
    expect(scraper.accountRate("shortvideoProfile")).toBe(rate);
  });

  it("reserves the rate it has seen: 10 parallel calls at 25 a call stay within a cap of 100", async () => {
    server.script(charging(25));
    const scraper = client({ budget: { maxCredits: 100 } });
    await scraper.profile("shortvideo", "c");
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => scraper.profile("shortvideo", "c")));
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(3);
    expect(server.requests.length * 25).toBe(100);
    // A refusal names what the call would cost at the rate seen.
    const refused = outcomes.find((outcome) => outcome.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason.budget).toMatchObject({ needed: 25 });
  });

  it("assumeRate: every call counts at the rate given from the first, none waits for the first answer", async () => {
    server.script(charging(25, 50));
    const scraper = client({ budget: { maxCredits: 30 }, assumeRate: 25 });
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => scraper.profile("shortvideo", "c")));
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    expect(server.requests).toHaveLength(1);
    expect(() => client({ assumeRate: 0 })).toThrow(expect.objectContaining({ field: "assumeRate" }));
  });

  it("walks count a page at the rate seen: maxCredits stops before a page it cannot pay", async () => {
    server.script(charging(25, 1));
    const scraper = client();
    const walk = scraper.walkPosts("shortvideo", "c", { maxCredits: 30 });
    for await (const _post of walk);
    // The first page found the rate out (one page's difference past the cap at most), the second would pass it.
    expect(walk.state).toMatchObject({ pages: 1, creditsCharged: 25, stoppedBecause: "maxCredits" });
    const known = scraper.walkPosts("shortvideo", "c", { maxCredits: 20 });
    for await (const _post of known);
    expect(known.state).toMatchObject({ pages: 0, stoppedBecause: "maxCredits" });
    expect(server.requests).toHaveLength(1);
  });

  it("a request that never left the machine (connection refused) releases its reservation and is retryable", async () => {
    // A port nothing listens on: one a server had, closed.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const dead = createScraperClient({ apiKey, baseUrl: `http://127.0.0.1:${port}/api/v1`, rateLimit: false, budget: { maxCredits: 1 } });
    for (let i = 0; i < 3; i++) {
      const error = (await dead.profile("shortvideo", "c").catch((thrown: unknown) => thrown)) as ScraperConnectionError;
      expect(error).toBeInstanceOf(ScraperConnectionError);
      expect(error).toMatchObject({ inFlight: false, retryable: true });
      expect(error.message).toContain("never sent");
    }
    expect(await dead.budgetState()).toEqual({ maxCredits: 1, spent: 0, reserved: 0 });
  });

  it("refuses an unusable budget, naming the field", () => {
    expect(() => client({ budget: { maxCredits: 2.5 } })).toThrow(expect.objectContaining({ field: "budget.maxCredits" }));
    expect(() => client({ budget: { maxCredits: 5, store: {} as never } })).toThrow(expect.objectContaining({ field: "budget.store" }));
    expect(() => client().withBudget({ maxCredits: -1 })).toThrow(expect.objectContaining({ field: "budget.maxCredits" }));
    expect(() => client().withBudget(undefined as never)).toThrow(expect.objectContaining({ field: "budget" }));
  });
});
