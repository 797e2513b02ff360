import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { errorCodes } from "../src/generated/scraper.operations.js";
import {
  createScraperClient,
  ScraperAbortError,
  ScraperApiError,
  ScraperConnectionError,
  type ScraperError,
  ScraperResponseError,
  ScraperTimeoutError,
} from "../src/index.js";
import { validateResponses } from "../src/validate.js";
import { hostile } from "@content-scraper/test-server";
import { type FaultServer, fail, ok, plain, startFaultServer } from "./fault-server.js";
import { scraperApi } from "../src/api.js";

const apiKey = "scrape_live_0123456789abcdef";
let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

const client = (retry: { maxRetries?: number; baseDelayMs?: number; maxDelayMs?: number } = {}, timeoutMs?: number) =>
  createScraperClient({ apiKey, baseUrl: server.baseUrl, rateLimit: false, timeoutMs, retry: { baseDelayMs: 5, maxDelayMs: 50, ...retry } });

async function rejection(promise: Promise<unknown>): Promise<ScraperError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!outcome) throw new Error("expected a rejection");
  return outcome as ScraperError;
}

// Statuses for the codes whose status the reference does not show: any undocumented one reaches `default`.
const statusOf = (code: string) => {
  const status = errorCodes[code as keyof typeof errorCodes].status;
  return status === "5XX" ? 502 : (status ?? 503);
};

describe("every error code becomes a typed ScraperApiError", () => {
  it.each(Object.entries(errorCodes))("%s", async (code, rules) => {
    server.script(fail(statusOf(code), code, { field: "username", reason: "^@?[a-zA-Z0-9._-]{1,100}$", platform: "shortvideo", identifier: "x" }, { "x-scraper-credits-charged": rules.billing === "billed" ? "1" : "0" }));
    const error = await rejection(client({ maxRetries: 0 }).profile("shortvideo", "creator"));
    expect(error).toBeInstanceOf(ScraperApiError);
    const apiError = error as ScraperApiError;
    expect(apiError).toMatchObject({
      name: "ScraperApiError",
      operationId: "shortvideoProfile",
      status: statusOf(code),
      code,
      codeSource: "service",
      serviceMessage: `${code} happened`,
      message: `shortvideoProfile answered ${statusOf(code)} (${code}, request req_${code.toLowerCase()}): ${code} happened`,
      requestId: `req_${code.toLowerCase()}`,
      creditsCharged: rules.billing === "billed" ? 1 : 0,
      billed: rules.billing === "billed",
      retryable: rules.retry !== "never" && rules.retry !== null,
      field: "username",
      reason: "^@?[a-zA-Z0-9._-]{1,100}$",
      platform: "shortvideo",
      identifier: "x",
    });
    expect(server.requests).toHaveLength(1);
  });
});

describe("retries by billing class", () => {
  it("retries refunded 5xx errors with backoff, then succeeds", async () => {
    server.script(fail(502, "UPSTREAM_ERROR"), fail(500, "INTERNAL_ERROR"), ok({ username: "creator", display_name: "C", follower_count: 1 }));
    const { data } = await client({ baseDelayMs: 20, maxDelayMs: 1000 }).profile("shortvideo", "creator");
    expect(data.follower_count).toBe(1);
    expect(server.requests).toHaveLength(3);
    const [a, b, c] = server.requests.map((r) => r.at) as [number, number, number];
    // 30 s then 60 s in the description, scaled to baseDelayMs 20: 20 ms, then 40 ms (plus up to 25% jitter).
    expect(b - a).toBeGreaterThanOrEqual(19);
    expect(c - b).toBeGreaterThanOrEqual(39);
  });

  it("retries the gateway's bare text/plain 504 and reports it typed when retries run out", async () => {
    server.script(plain(504, "upstream request timeout"));
    const error = (await rejection(client({ maxRetries: 2 }).posts("videosite", "creator"))) as ScraperApiError;
    expect(error).toBeInstanceOf(ScraperApiError);
    expect(error).toMatchObject({ status: 504, code: "GATEWAY_TIMEOUT", codeSource: "client", billed: false, retryable: true });
    expect(String(error)).toBe("ScraperApiError: videositePosts answered 504 (GATEWAY_TIMEOUT): HTTP 504: upstream request timeout");
    expect(server.requests).toHaveLength(3);
  });

  it("waits exactly Retry-After on 429 and on a busy refusal", async () => {
    server.script(
      fail(429, "SCRAPER_RATE_LIMITED", {}, { "retry-after": "1" }),
      fail(503, "SCRAPER_SYSTEM_BUSY", {}, { "retry-after": "1" }),
      ok({ username: "c", display_name: "c", follower_count: 0 }),
    );
    await client({ baseDelayMs: 1, maxDelayMs: 1 }).profile("shortvideo", "creator");
    const [a, b, c] = server.requests.map((r) => r.at) as [number, number, number];
    expect(b - a).toBeGreaterThanOrEqual(990);
    expect(c - b).toBeGreaterThanOrEqual(990);
  });

  it.each([
    [404, "PROFILE_NOT_FOUND"],
    [400, "INVALID_INPUT"],
    [401, "UNAUTHORIZED"],
    [402, "INSUFFICIENT_SCRAPER_CREDITS"],
    [413, "PAYLOAD_TOO_LARGE"],
  ])("never retries %i %s", async (status, code) => {
    server.script(fail(status, code));
    const error = (await rejection(client({ maxRetries: 4 }).profile("shortvideo", "creator"))) as ScraperApiError;
    expect(error.retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it("gives up after maxRetries and reports the last answer", async () => {
    server.script(fail(502, "UPSTREAM_TIMEOUT"));
    const error = (await rejection(client({ maxRetries: 3 }).profile("shortvideo", "creator"))) as ScraperApiError;
    expect(error.code).toBe("UPSTREAM_TIMEOUT");
    expect(server.requests).toHaveLength(4);
  });
});

describe("bodies that are not the promised JSON", () => {
  it("a truncated success body is a ScraperResponseError, never a SyntaxError", async () => {
    server.script((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end('{"data": {"username": "cre');
    });
    const error = await rejection(client().profile("shortvideo", "creator"));
    expect(error).toBeInstanceOf(ScraperResponseError);
    expect(error.message).toMatch(/not valid JSON/);
  });

  it("a body cut off by the connection is a ScraperConnectionError", async () => {
    server.script((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": "500" });
      response.write('{"data": {');
      setTimeout(() => response.destroy(), 10);
    });
    const error = await rejection(client().profile("shortvideo", "creator"));
    expect(error).toBeInstanceOf(ScraperConnectionError);
    expect(server.requests).toHaveLength(1);
  });

  it("an HTML error page is a ScraperApiError with the status", async () => {
    server.script(plain(500, "<html>oops</html>"));
    const error = (await rejection(client({ maxRetries: 0 }).profile("shortvideo", "creator"))) as ScraperApiError;
    expect(error).toBeInstanceOf(ScraperApiError);
    expect(error).toMatchObject({ status: 500, code: undefined, retryable: true });
  });
});

describe("timeouts and cancellation", () => {
  const slow = (ms: number) => async (_request: unknown, response: import("node:http").ServerResponse) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    if (!response.destroyed) ok({ username: "c", display_name: "c", follower_count: 0 })(_request as never, response);
  };

  it("a client timeout is a ScraperTimeoutError, not retried (the service may have billed it)", async () => {
    server.script(slow(300));
    const error = (await rejection(client({}, 50).profile("shortvideo", "creator"))) as ScraperTimeoutError;
    expect(error).toBeInstanceOf(ScraperTimeoutError);
    expect(error.name).toBe("ScraperTimeoutError");
    expect(error.timeoutMs).toBe(50);
    expect(server.requests).toHaveLength(1);
  });

  it("a per-request timeoutMs overrides the client's", async () => {
    server.script(slow(300));
    const error = (await rejection(client({}, 10_000).profile("shortvideo", "creator", { timeoutMs: 40 }))) as ScraperTimeoutError;
    expect(error.timeoutMs).toBe(40);
  });

  it("an aborted signal rejects with a ScraperAbortError carrying its reason, in flight", async () => {
    server.script(slow(5_000));
    const controller = new AbortController();
    const pending = client().profile("shortvideo", "creator", { signal: controller.signal });
    // Abort while the server holds the request (on a busy machine, reaching it can take a while).
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), { timeout: 4_000 });
    const reason = new Error("caller gave up");
    controller.abort(reason);
    const error = (await rejection(pending)) as ScraperAbortError;
    expect(error).toBeInstanceOf(ScraperAbortError);
    expect(error).toMatchObject({ name: "ScraperAbortError", operationId: "shortvideoProfile", inFlight: true, cause: reason });
  });

  it("a timeout is a ScraperAbortError too, and a signal aborted before the call sends nothing", async () => {
    server.script(slow(300));
    expect(await rejection(client({}, 50).profile("shortvideo", "creator"))).toBeInstanceOf(ScraperAbortError);
    const error = (await rejection(client().profile("shortvideo", "creator", { signal: AbortSignal.abort() }))) as ScraperAbortError;
    expect(error).toMatchObject({ name: "ScraperAbortError", inFlight: false });
    expect(server.requests).toHaveLength(1);
  });

  it("an abort during a backoff wait stops the retries", async () => {
    server.script(fail(502, "UPSTREAM_ERROR"));
    const controller = new AbortController();
    const pending = client({ baseDelayMs: 5_000, maxDelayMs: 5_000 }).profile("shortvideo", "creator", { signal: controller.signal });
    // Abort once the first attempt has landed (on a busy machine that can take longer than a fixed delay).
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), { timeout: 2_000 });
    setTimeout(() => controller.abort(new Error("stop")), 50);
    const error = (await rejection(pending)) as ScraperAbortError;
    expect(error).toMatchObject({ name: "ScraperAbortError", inFlight: false, cause: new Error("stop") });
    expect(server.requests).toHaveLength(1);
  });
});

describe("validateResponses", () => {
  const drifted = ok({ username: "creator", display_name: "Creator", follower_count: "1.2M" });

  it("throws a typed error naming the path when a body drifts from the description", async () => {
    server.script(drifted);
    const scraper = createScraperClient({ apiKey, baseUrl: server.baseUrl, rateLimit: false, validateResponses });
    const error = (await rejection(scraper.profile("shortvideo", "creator"))) as ScraperResponseError;
    expect(error).toBeInstanceOf(ScraperResponseError);
    expect(error.problems.map((problem) => problem.path)).toContain("/data/follower_count");
    expect(error.message).toContain("follower_count");
  });

  it("checks the api client's answers too", async () => {
    server.script(drifted);
    const scraper = createScraperClient({ apiKey, baseUrl: server.baseUrl, rateLimit: false, validateResponses });
    await expect(scraperApi(scraper).POST("/scrape/shortvideo/profile", { body: { username: "creator" } })).rejects.toBeInstanceOf(ScraperResponseError);
  });

  it("passes a conforming body, and checks nothing when off", async () => {
    server.script(ok({ username: "creator", display_name: "Creator", follower_count: 12 }));
    const checked = createScraperClient({ apiKey, baseUrl: server.baseUrl, rateLimit: false, validateResponses });
    expect((await checked.profile("shortvideo", "creator")).data.follower_count).toBe(12);
    server.script(drifted);
    const unchecked = createScraperClient({ apiKey, baseUrl: server.baseUrl, rateLimit: false });
    expect((await unchecked.profile("shortvideo", "creator")).data.follower_count).toBe("1.2M");
  });
});

describe("an abort in every waiting state is a ScraperAbortError", () => {
  const abortSoon = (ms: number) => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("job cancelled")), ms);
    return controller.signal;
  };
  const expectAbort = async (pending: Promise<unknown>, inFlight: boolean) => {
    const error = (await rejection(pending)) as ScraperAbortError;
    expect(error).toBeInstanceOf(ScraperAbortError);
    expect(error).toMatchObject({ inFlight, cause: new Error("job cancelled") });
  };

  it("while waiting for pacing: nothing is sent", async () => {
    server.script(ok({ username: "c", display_name: "c", follower_count: 0 }, { headers: { "x-scraper-ratelimit-remaining": "0" } }));
    const paced = createScraperClient({ apiKey, baseUrl: server.baseUrl, rateLimit: { requestsPerMinute: 6 } });
    await paced.profile("shortvideo", "creator"); // the service says nothing remains: the next token is 10 s away
    await expectAbort(paced.profile("shortvideo", "creator", { signal: abortSoon(100) }), false);
    expect(server.requests).toHaveLength(1);
  });

  it("while waiting out a Retry-After", async () => {
    server.script(fail(429, "SCRAPER_RATE_LIMITED", {}, { "retry-after": "30" }));
    await expectAbort(client().profile("shortvideo", "creator", { signal: abortSoon(200) }), false);
    expect(server.requests).toHaveLength(1);
  });

  it("while reading the body", async () => {
    server.script(hostile.trickle(50));
    await expectAbort(client().profile("shortvideo", "creator", { signal: abortSoon(300) }), true);
  });
});
