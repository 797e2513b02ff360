import { inspect } from "node:util";
import { hostile } from "@content-scraper/test-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createScraperClient,
  ScraperApiError,
  ScraperInputError,
  ScraperRedirectError,
  ScraperResponseError,
  ScraperResponseTooLargeError,
} from "../src/index.js";
import { memoryRateLimitStore } from "@content-scraper/runtime";
import { type FaultServer, fail, ok, startFaultServer } from "./fault-server.js";
import { scraperApi } from "../src/api.js";

// What the scraper client does with a server that misbehaves: the client-specific parts. The same cases run against
// every client of the SDK in tooling/hostile-suite.

const apiKey = "scrape_live_hostile0123456789";
let server: FaultServer;
let elsewhere: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
  elsewhere = await startFaultServer();
});
afterAll(async () => {
  await server.close();
  await elsewhere.close();
});

const client = (options: Parameters<typeof createScraperClient>[0] = {}) =>
  createScraperClient({ apiKey, baseUrl: server.baseUrl, rateLimit: false, retry: { baseDelayMs: 5, maxDelayMs: 20 }, ...options });
const profile = { username: "creator", display_name: "Creator", follower_count: 1 };

async function rejection(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new Error("expected a rejection");
  return outcome;
}

describe("a success that is not the envelope is a ScraperResponseError naming the operation, never a TypeError", () => {
  const envelope = { data: profile, request_id: "req_1", upstream_calls: 1, meta: { credits_charged: 1, credits_remaining: 9 } };
  it.each([
    ["null", "null", ""],
    ["an array", "[]", ""],
    ["a string", '"ok"', ""],
    ["no meta", JSON.stringify({ ...envelope, meta: undefined }), "/meta"],
    ["no data", JSON.stringify({ ...envelope, data: undefined }), "/data"],
    ["data null", JSON.stringify({ ...envelope, data: null }), "/data"],
    ["meta without credits", JSON.stringify({ ...envelope, meta: {} }), "/meta/credits_charged"],
    ["no request_id", JSON.stringify({ ...envelope, request_id: undefined }), "/request_id"],
  ])("%s", async (_name, body, path) => {
    server.script(hostile.raw(200, body));
    for (const call of [() => client().profile("shortvideo", "creator"), () => scraperApi(client()).POST("/scrape/shortvideo/profile", { body: { username: "creator" } })]) {
      const error = await rejection(call());
      expect(error).toBeInstanceOf(ScraperResponseError);
      expect(error.message).toMatch(/^shortvideoProfile answered 200 with a body that is not the success envelope/);
      expect((error as ScraperResponseError).problems[0]?.path).toBe(path);
    }
  });

  it("HTML on 200 is not valid JSON, through api too (openapi-fetch would throw a SyntaxError)", async () => {
    server.script(hostile.raw(200, "<html>maintenance</html>", { "content-type": "text/html" }));
    await expect(scraperApi(client()).POST("/scrape/shortvideo/profile", { body: { username: "creator" } })).rejects.toBeInstanceOf(ScraperResponseError);
  });

  it("an error status with a null or array body is a ScraperApiError", async () => {
    for (const body of ["null", "[1]", '"x"']) {
      server.script(hostile.raw(400, body));
      expect(await rejection(client().profile("shortvideo", "creator"))).toMatchObject({ name: "ScraperApiError", status: 400, code: undefined });
    }
  });

  it("a page whose posts are missing, or hold null, stops the walk with a ScraperResponseError", async () => {
    for (const data of [{ profile_pictures: {} }, { posts: [null], profile_pictures: {} }]) {
      server.script(ok(data));
      const walk = client().walkPosts("shortvideo", "creator");
      const error = await rejection(walk.next());
      expect(error).toBeInstanceOf(ScraperResponseError);
      expect(error.message).toContain("shortvideoPosts");
      await expect(client().newPosts("shortvideo", "creator", { seen: new Set() }).next()).rejects.toBeInstanceOf(ScraperResponseError);
    }
  });
});

describe("maxRetryWaitMs: a wait beyond it is not slept", () => {
  it.each([
    [429, "SCRAPER_RATE_LIMITED", "3600"],
    [429, "SCRAPER_RATE_LIMITED", "2147484"],
    [503, "SCRAPER_SYSTEM_BUSY", "1000000000"],
  ])("%i %s with Retry-After %s fails at once, retryable, with retryAfterMs", async (status, code, retryAfter) => {
    server.script(fail(status, code, {}, { "retry-after": retryAfter }), ok(profile));
    const error = (await rejection(client().profile("shortvideo", "creator"))) as ScraperApiError;
    expect(error).toBeInstanceOf(ScraperApiError);
    expect(error).toMatchObject({ code, retryable: true, retryAfterMs: Number(retryAfter) * 1000 });
    expect(server.requests).toHaveLength(1);
  });

  it("defaults to the description's backoff cap (5 minutes), and can be lowered", async () => {
    server.script(fail(429, "SCRAPER_RATE_LIMITED", {}, { "retry-after": "301" }));
    expect(await rejection(client().profile("shortvideo", "creator"))).toMatchObject({ retryAfterMs: 301_000 });
    expect(server.requests).toHaveLength(1);
    server.script(fail(429, "SCRAPER_RATE_LIMITED", {}, { "retry-after": "1" }), ok(profile));
    await rejection(client({ maxRetryWaitMs: 999 }).profile("shortvideo", "creator"));
    expect(server.requests).toHaveLength(1);
  });

  it("a refused wait does not pause the client's pacing: the next call goes at once", async () => {
    const paced = client({ rateLimit: { requestsPerMinute: 120 } });
    server.script(fail(429, "SCRAPER_RATE_LIMITED", {}, { "retry-after": "3600" }), ok(profile));
    await rejection(paced.profile("shortvideo", "creator"));
    expect((await paced.profile("shortvideo", "creator")).data).toEqual(profile);
  });
});

describe("rate-limit headers cannot poison the pacing", () => {
  it.each(["-1000000000", "1e400", "abc", "-1, -5"])("X-Scraper-RateLimit-Remaining: %s is ignored", async (remaining) => {
    const paced = client({ rateLimit: { requestsPerMinute: 120 } });
    server.script(ok(profile, { headers: { "x-scraper-ratelimit-remaining": remaining } }));
    const { meta } = await paced.profile("shortvideo", "creator");
    expect(meta.rateLimit.remaining).toBeUndefined();
    // The bucket still holds most of its minute of allowance: a burst of ten goes through.
    await Promise.all(Array.from({ length: 10 }, () => paced.profile("shortvideo", "creator")));
    expect(server.requests).toHaveLength(11);
  });

  it("a correction is clamped to what the bucket holds", () => {
    let now = 0;
    const store = memoryRateLimitStore(() => now);
    const limit = { requestsPerMinute: 6000, burstSeconds: 60 };
    store.correct("k", limit, -1e9);
    store.correct("k", limit, 1e12);
    expect(store.take("k", limit)).toBe(10); // one token at 6000 per minute: from empty, not from a billion below it
    now += 10;
    expect(store.take("k", limit)).toBe(0);
  });
});

describe("redirects and bodies", () => {
  it("refuses a redirect to another origin with a ScraperRedirectError that names both origins, never the key", async () => {
    server.script(hostile.redirect(307, `${elsewhere.origin}/api/v1/scrape/shortvideo/profile?key=${apiKey}`));
    const error = (await rejection(client().profile("shortvideo", "creator"))) as ScraperRedirectError;
    expect(error).toBeInstanceOf(ScraperRedirectError);
    expect(error).toMatchObject({ operationId: "shortvideoProfile", refusal: { status: 307, fromOrigin: server.origin, toOrigin: elsewhere.origin, reason: "cross-origin" } });
    for (const text of [String(error), error.message, JSON.stringify(error), inspect(error, { depth: 5 })]) expect(text).not.toContain(apiKey);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it("follows a same-origin 308 with the key, once", async () => {
    server.script(hostile.redirect(308, "/api/v1/scrape/shortvideo/profile?moved=1"), ok(profile));
    expect((await client().profile("shortvideo", "creator")).data).toEqual(profile);
    expect(server.requests[1]?.headers["x-api-key"]).toBe(apiKey);
  });

  it("stops a body beyond maxResponseBytes with ScraperResponseTooLargeError", async () => {
    server.script(hostile.bomb("br", 1024 ** 3));
    const error = (await rejection(client({ maxResponseBytes: 100_000 }).profile("shortvideo", "creator"))) as ScraperResponseTooLargeError;
    expect(error).toBeInstanceOf(ScraperResponseTooLargeError);
    expect(error).toBeInstanceOf(ScraperResponseError);
    expect(error).toMatchObject({ operationId: "shortvideoProfile", status: 200, tooLarge: { limitBytes: 100_000, counted: "decoded" } });
  });
});

describe("options", () => {
  it.each([
    ["maxRetryWaitMs", { maxRetryWaitMs: -1 }],
    ["maxRetryWaitMs", { maxRetryWaitMs: Number.NaN }],
    ["maxResponseBytes", { maxResponseBytes: 0 }],
    ["maxResponseBytes", { maxResponseBytes: 1.5 }],
  ])("%s is checked", (field, options) => {
    const error = (() => {
      try {
        client(options as never);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ScraperInputError);
    expect(error).toMatchObject({ field });
  });
});

describe("a success that echoes the key", () => {
  it("comes with its meta redacted (the request id, the headers) and its data as the service sent it", async () => {
    const echoed = Buffer.from(apiKey).toString("base64");
    server.script(
      hostile.raw(200, JSON.stringify({ data: { ...profile, display_name: apiKey }, request_id: `req_${echoed}`, upstream_calls: 1, meta: { credits_charged: 1, credits_remaining: 9 } }), {
        "x-echo": `key=${encodeURIComponent(apiKey)}`,
      }),
    );
    const { data, meta, response } = await client().profile("shortvideo", "creator");
    expect(meta.requestId).toBe("req_[redacted]");
    expect(response.headers.get("x-echo")).toBe("key=[redacted]");
    expect(data.display_name).toBe(apiKey);
  });
});
