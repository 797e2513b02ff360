// The edges a lying server, a careless caller or a shared signal reach: money a server could un-spend, inputs that
// would crash, waits that would hold a process open, listeners that pile up.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  createScraperClient,
  ScraperBudgetError,
  ScraperInputError,
  ScraperResponseError,
  ScraperTimeoutError,
} from "@content-scraper/client";
import { focusedClient } from "@content-scraper/client/focused";
import { createConnectClient } from "@content-scraper/connect";
import { createLegacyClient, createPlatformClient } from "@content-scraper/platform";
import { type Handler, hostile, type ScriptedServer, startScriptedServer } from "@content-scraper/test-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

const key = "scrape_live_edgesTest";
const scraper = (options: Record<string, unknown> = {}) =>
  createScraperClient({ apiKey: key, baseUrl: `${server.origin}/api/v1`, retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 }, ...options });

/** A success envelope whose `meta` says what the test wants, and a fresh cursor every page (a catalog that never ends). */
const lying =
  (meta: Record<string, unknown>): Handler =>
  (_request, response) => {
    const data = { posts: [{ id: String(Math.random()), platform: "shortvideo" }], profile_pictures: {}, next_cursor: `c${Math.random()}` };
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data, request_id: "req_lie", upstream_calls: 1, meta: { credits_charged: 1, credits_remaining: 9, ...meta } }));
  };

describe("a server that lies about money", () => {
  it.each([
    ["credits_charged -1", { credits_charged: -1 }, "/meta/credits_charged"],
    ["credits_charged as the string 1", { credits_charged: "1" }, "/meta/credits_charged"],
    ["credits_charged 1.5", { credits_charged: 1.5 }, "/meta/credits_charged"],
    ["credits_remaining -1", { credits_remaining: -1 }, "/meta/credits_remaining"],
  ])("%s is not an envelope: a ScraperResponseError naming the field", async (_name, meta, path) => {
    server.script(lying(meta));
    const error = await scraper().profile("shortvideo", "creator").catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ScraperResponseError);
    expect((error as ScraperResponseError).problems[0]?.path).toBe(path);
  });

  it.each([
    ["-1", -1],
    ["0", 0],
  ])("a walk with maxCredits 5 fetches at most 5 pages when every page says it cost %s", async (_name, charged) => {
    server.script(lying({ credits_charged: charged }));
    const walk = scraper().walkPosts("shortvideo", "creator", { maxCredits: 5 });
    await (async () => {
      for await (const _post of walk);
    })().catch(() => undefined);
    expect(server.requests.length).toBeLessThanOrEqual(5);
    expect(walk.state.creditsCharged).toBeGreaterThanOrEqual(0);
  });

  it.each([
    ["-1", -1],
    ["0", 0],
  ])("a client budget of 5 sends at most 5 of 20 calls when every answer says it cost %s, and never reads below 0", async (_name, charged) => {
    server.script(lying({ credits_charged: charged }));
    const client = scraper({ budget: { maxCredits: 5 } });
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => client.profile("shortvideo", "creator")));
    expect(server.requests.length).toBeLessThanOrEqual(5);
    expect(outcomes.filter((outcome) => outcome.status === "rejected" && outcome.reason instanceof ScraperBudgetError).length).toBeGreaterThanOrEqual(15);
    const state = await client.budgetState();
    expect(state?.spent).toBeGreaterThanOrEqual(0);
    expect((state?.spent ?? 0) + (state?.reserved ?? 0)).toBeLessThanOrEqual(5);
  });
});

describe("pages that are not the service's", () => {
  it.each([502, 503])("a %i HTML page with no code is retried like the service's refunded 5xx, and billed nothing", async (status) => {
    server.script(hostile.raw(status, "<html>unavailable</html>", { "content-type": "text/html" }), lying({}));
    const { meta } = await scraper().profile("shortvideo", "creator");
    expect(server.requests).toHaveLength(2);
    expect(meta.creditsCharged).toBe(1);
  });
});

describe("a careless caller", () => {
  type Call = (client: ReturnType<typeof scraper>) => Promise<unknown>;
  it.each<[string, Call, string]>([
    ["a BigInt username", (client: ReturnType<typeof scraper>) => client.profile("shortvideo", 1n as unknown as string), "username"],
    ["an undefined username", (client: ReturnType<typeof scraper>) => client.profile("shortvideo", undefined as unknown as string), "username"],
    ["posts(…, null)", (client: ReturnType<typeof scraper>) => client.posts("shortvideo", "creator", null as never), "options"],
    ["post(…, null)", (client: ReturnType<typeof scraper>) => client.post("shortvideo", "https://v.example/1", null as never), "options"],
    [
      "a circular body for a focused call",
      (client: ReturnType<typeof scraper>) => {
        const body: Record<string, unknown> = { handle: "creator" };
        body.self = body;
        return focusedClient(client, "shortvideo").favorites(body as never);
      },
      "body",
    ],
  ])("%s is a ScraperInputError naming the field, and nothing is sent", async (_name, call, field) => {
    server.script(lying({}));
    const error = await Promise.resolve()
      .then((): Promise<unknown> => call(scraper()))
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ScraperInputError);
    expect((error as ScraperInputError).field).toBe(field);
    expect(server.requests).toHaveLength(0);
  });

  it("a rate of 1e-9 requests a minute is refused at construction", () => {
    expect(() => scraper({ rateLimit: { requestsPerMinute: 1e-9 } })).toThrow(ScraperInputError);
  });

  it("a call's pacing wait counts against its timeout: it ends within it, unsent, not in flight", async () => {
    server.script(lying({}));
    const client = scraper({ rateLimit: { requestsPerMinute: 1 }, timeoutMs: 300 });
    await client.profile("shortvideo", "creator");
    const started = performance.now();
    const error = await client.profile("shortvideo", "creator").catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ScraperTimeoutError);
    expect((error as ScraperTimeoutError).inFlight).toBe(false);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(server.requests).toHaveLength(1);
  });
});

describe("waits that end", () => {
  const run = (what: string) =>
    new Promise<{ out: string; ms: number }>((resolve, reject) => {
      const started = performance.now();
      const child = spawn(process.execPath, [fileURLToPath(new URL("./fixtures/exits.mjs", import.meta.url)), what, server.origin], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (chunk) => {
        out += String(chunk);
      });
      const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      child.on("exit", () => {
        clearTimeout(killer);
        resolve({ out: out.trim(), ms: performance.now() - started });
      });
      child.on("error", reject);
    });

  it("after an aborted pacing wait, the process exits at once: no timer holds it", async () => {
    server.script(lying({}));
    const { out, ms } = await run("pacing");
    expect(out).toBe("answered ScraperAbortError");
    // The next token was a minute away: a timer left behind would hold the process for it (a loaded machine takes
    // seconds to start a process, never a minute).
    expect(ms).toBeLessThan(45_000);
  });

  it("after aborting calls parked behind a 429's 30 s Retry-After, the process exits at once", async () => {
    server.script(hostile.raw(429, JSON.stringify({ error: "SCRAPER_RATE_LIMITED", message: "slow down", request_id: "req_429" }), { "retry-after": "30" }));
    const { out, ms } = await run("retry-after");
    expect(out).toBe("ScraperAbortError ScraperAbortError ScraperAbortError");
    expect(ms).toBeLessThan(15_000);
  });
});

describe("a signal shared by many calls", () => {
  const clients = {
    scraper: () => (signal: AbortSignal) => scraper({ rateLimit: false }).profile("shortvideo", "creator", { signal }),
    platform: () => (signal: AbortSignal) => createPlatformClient({ baseUrl: `${server.origin}/api/oauth/v1`, accessToken: "eyJshared" }).request("GET", "/x", { signal }),
    legacy: () => (signal: AbortSignal) => createLegacyClient({ baseUrl: `${server.origin}/api/v1`, apiKey: "company_shared" }).request("GET", "/x", { signal }),
    connect: () => (signal: AbortSignal) => createConnectClient({ baseUrl: `${server.origin}/api/embed`, apiKey: "sk_test_shared" }).request("GET", "/x", { signal }),
  };

  it.each(Object.entries(clients))("%s: 30 calls on one signal draw no MaxListenersExceededWarning, and all abort alike", async (_name, open) => {
    server.script(hostile.silence());
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const call = open();
      const controller = new AbortController();
      const calls = Array.from({ length: 30 }, () => call(controller.signal).catch((error: unknown) => error));
      await new Promise((resolve) => setTimeout(resolve, 200));
      controller.abort(new Error("enough"));
      const errors = await Promise.all(calls);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain("MaxListenersExceededWarning");
      for (const error of errors) expect(error).toMatchObject({ inFlight: true, cause: expect.objectContaining({ message: "enough" }) });
      expect(errors[0]).toSatisfy((error: unknown) => error instanceof Error && /Abort/.test(error.name));
    } finally {
      process.off("warning", onWarning);
    }
  });
});

