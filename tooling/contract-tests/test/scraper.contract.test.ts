// The scraper client against the sandbox: every operation, the documented negative cases through the client's typed
// errors, and a full catalog walk per platform. Every answer is checked against the description (see support.ts).
import { ScraperApiError, type ScraperClient } from "@content-scraper/client";
import { focusedClient } from "@content-scraper/client/focused";
import { type RunningMock, sandboxKeys } from "@content-scraper/mock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkedResponses, clientFor, invoke, scraperOperations, startSandbox, takeProblems } from "./support.js";

afterEach(() => {
  expect(takeProblems()).toEqual([]);
});

/** The typed error a call rejects with. */
async function apiError(call: Promise<unknown>): Promise<ScraperApiError> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ScraperApiError);
  return error as ScraperApiError;
}

describe.each([
  { mode: "static examples", dynamic: false },
  { mode: "seeded dynamic payloads", dynamic: true },
])("every scraper operation, $mode", ({ dynamic }) => {
  let mock: RunningMock;
  let client: ScraperClient;
  beforeAll(async () => {
    mock = await startSandbox({ dynamic, seed: "contract" });
    client = clientFor(mock);
  });
  afterAll(() => mock.close());

  it.each(scraperOperations.map((operation) => [operation.operationId, operation] as const))("%s", async (_id, operation) => {
    const { data, meta } = await invoke(client, operation);
    expect(data).toBeTypeOf("object");
    expect(meta.creditsCharged).toBeGreaterThan(0);
    expect(meta.requestId).toMatch(/^req_/);
    expect(meta.rateLimit.limit).toBeGreaterThan(0);
  });
});

describe("the documented negative cases, as typed errors", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startSandbox();
  });
  afterAll(() => mock.close());

  it("a username off the pattern: INVALID_INPUT naming the field and the pattern", async () => {
    const error = await apiError(clientFor(mock).profile("shortvideo", "not a handle"));
    expect(error).toMatchObject({ status: 400, code: "INVALID_INPUT", field: "username", reason: "^@?[a-zA-Z0-9._-]{1,100}$", billed: false, retryable: false });
    expect(error.creditsCharged).toBe(0);
  });

  it("an unknown field on a focused operation: INVALID_INPUT before billing", async () => {
    const favorites = focusedClient(clientFor(mock), "shortvideo").favorites({ handle: "creator", cursour: "0" } as never);
    expect(await apiError(favorites)).toMatchObject({ status: 400, code: "INVALID_INPUT", field: "cursour", creditsCharged: 0 });
  });

  it("a body over 32 KB: PAYLOAD_TOO_LARGE", async () => {
    const error = await apiError(focusedClient(clientFor(mock), "shortvideo").searchSuggestions({ query: "x".repeat(33 * 1024) }));
    expect(error).toMatchObject({ status: 413, code: "PAYLOAD_TOO_LARGE", billed: false, retryable: false });
  });

  it("a revoked key: UNAUTHORIZED, charged 0", async () => {
    const error = await apiError(clientFor(mock, { apiKey: sandboxKeys.revoked }).profile("shortvideo", "creator"));
    expect(error).toMatchObject({ status: 401, code: "UNAUTHORIZED", creditsCharged: 0, retryable: false });
  });

  it("an empty balance: INSUFFICIENT_SCRAPER_CREDITS", async () => {
    const error = await apiError(clientFor(mock, { apiKey: sandboxKeys.empty }).posts("photoshare", "creator"));
    expect(error).toMatchObject({ status: 402, code: "INSUFFICIENT_SCRAPER_CREDITS", billed: false, retryable: false });
  });

  it("a creator that does not exist: PROFILE_NOT_FOUND, billed and not retried", async () => {
    const error = await apiError(clientFor(mock).audience("shortvideo", "notfound"));
    expect(error).toMatchObject({ status: 404, code: "PROFILE_NOT_FOUND", billed: true, retryable: false, platform: "shortvideo" });
    expect(error.creditsCharged).toBe(25);
  });

  it("a post that does not exist: POST_NOT_FOUND with its identifier", async () => {
    const error = await apiError(clientFor(mock).post("microblog", "microblog.example/Creator/status/notfound"));
    expect(error).toMatchObject({ status: 404, code: "POST_NOT_FOUND", billed: true, identifier: "notfound" });
  });

  it("a creator with no posts: 200 with an empty page, billed", async () => {
    const { data, meta } = await clientFor(mock).posts("shortvideo", "nopost");
    expect(data.posts).toEqual([]);
    expect(data.next_cursor).toBeUndefined();
    expect(meta.creditsCharged).toBe(1);
  });

  it("a refunded failure: retried with backoff, then UPSTREAM_ERROR with nothing charged", async () => {
    const client = clientFor(mock, { retry: { maxRetries: 2 } });
    const before = (await client.profile("shortvideo", "creator")).meta.creditsRemaining;
    const error = await apiError(client.profile("shortvideo", "upstreamerror"));
    expect(error).toMatchObject({ status: 502, code: "UPSTREAM_ERROR", billed: false, retryable: true, creditsCharged: 0 });
    expect((await client.profile("shortvideo", "creator")).meta.creditsRemaining).toBe(before - 1);
  });

  it("the gateway's bare 504: a typed error with the client's code GATEWAY_TIMEOUT, retryable, not billed", async () => {
    const error = await apiError(clientFor(mock, { retry: { maxRetries: 0 } }).profile("videosite", "gatewaytimeout"));
    expect(error).toMatchObject({ status: 504, code: "GATEWAY_TIMEOUT", codeSource: "client", retryable: true, billed: false });
  });

  it("a busy service: SCRAPER_SYSTEM_BUSY with its Retry-After", async () => {
    const error = await apiError(clientFor(mock, { retry: { maxRetries: 0 } }).profile("shortvideo", "busy"));
    expect(error).toMatchObject({ code: "SCRAPER_SYSTEM_BUSY", billed: false, retryable: true, retryAfterMs: 1000 });
  });
});

describe("rate limits", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    // 60 a minute: a burst of 60, then one request a second.
    mock = await startSandbox({ requestsPerMinute: 60 });
  });
  afterAll(() => mock.close());

  it("an exhausted bucket: SCRAPER_RATE_LIMITED with Retry-After, and the client's retry waits it out", async () => {
    const apiKey = `scrape_live_ratelimit_${process.pid}`;
    const eager = clientFor(mock, { apiKey, rateLimit: false, retry: { maxRetries: 0 } });
    let error: ScraperApiError | undefined;
    for (let sent = 0; !error && sent < 70; sent++) {
      error = await eager.profile("shortvideo", "creator").then(
        () => undefined,
        (reason: ScraperApiError) => reason,
      );
    }
    expect(error).toMatchObject({ status: 429, code: "SCRAPER_RATE_LIMITED", billed: false, retryable: true, creditsCharged: 0 });
    expect(error?.retryAfterMs).toBeGreaterThanOrEqual(1000);

    const patient = clientFor(mock, { apiKey, rateLimit: false, retry: { maxRetries: 2 } });
    const { meta } = await patient.profile("shortvideo", "creator");
    expect(meta.rateLimit.limit).toBe(60);
  });
});

describe("a full catalog walk per platform", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startSandbox({ seed: "walks" });
  });
  afterAll(() => mock.close());

  const listings = scraperOperations.filter((operation) => operation.resource === "posts");

  it.each(listings.map((operation) => [operation.platform, operation] as const))(
    "%s: follows next_cursor to the end, each post once, one billed page at a time",
    async (platform, operation) => {
      const client = clientFor(mock);
      let longest = 0;
      for (const creator of ["walker.one", "walker.two", "walker.three", "walker.four"]) {
        const pages: Array<{ size: number; cursor: unknown; charged: number }> = [];
        const posts = [];
        for await (const page of client.walkPages(platform as "shortvideo", creator)) {
          pages.push({ size: page.data.posts.length, cursor: page.data.next_cursor, charged: page.meta.creditsCharged });
          posts.push(...page.items);
        }
        expect(posts.length).toBe(pages.reduce((sum, page) => sum + page.size, 0));
        expect(new Set(posts.map((post) => `${post.platform}:${post.id}`)).size).toBe(posts.length);
        expect(pages.at(-1)?.cursor).toBeUndefined();
        expect(pages.slice(0, -1).every((page) => typeof page.cursor === "string")).toBe(true);
        expect(pages.every((page) => page.charged === 1)).toBe(true);
        longest = Math.max(longest, pages.length);
      }
      // Cursor platforms have catalogs of several pages among these creators; single-page ones never do.
      if (operation.paging === "cursor") expect(longest).toBeGreaterThan(1);
      else expect(longest).toBe(1);
    },
  );
});

afterAll(() => {
  expect(checkedResponses()).toBeGreaterThan(scraperOperations.length * 2);
});
