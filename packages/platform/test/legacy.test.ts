import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLegacyClient, LegacyApiError, LegacySubscriptionRequiredError, PlatformInputError, PlatformResponseError } from "../src/index.js";
import { type Handler, json, startServer, type TestServer } from "./server.js";

const apiKey = "company_4f9c2a7be81d4c6f9a0e5b3d";
const rate = { "x-ratelimit-limit": "100", "x-ratelimit-remaining": "97", "x-ratelimit-reset": "1763776380" };
let server: TestServer;
beforeAll(async () => {
  server = await startServer("/api/v1");
});
afterAll(() => server.close());

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

const legacy = (options: { retry?: { maxRetries?: number } } = {}) => createLegacyClient({ apiKey, baseUrl: server.baseUrl, ...options });
const failure = (status: number, body: unknown, headers: Record<string, string> = {}): Handler => json(status, body, { ...rate, ...headers });

describe("the key", () => {
  it.each([
    ["scrape_live_0123456789", /starts with scrape_live_: that is a scraper key/],
    ["sk_live_0123456789", /starts with sk_live_: that is a connect key/],
    ["sk_test_0123456789", /starts with sk_test_: that is a connect key/],
    ["", /apiKey is missing/],
  ])("refuses %j: credentials are not interchangeable", (key, message) => {
    let error: unknown;
    try {
      createLegacyClient({ apiKey: key, baseUrl: "https://api.example.com/api/v1" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PlatformInputError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain("0123456789");
  });

  it("goes in x-api-key, and nowhere else", async () => {
    server.script(failure(401, { error: "Invalid or missing API key." }));
    const client = legacy();
    const error = await client.getPostMetricsHistory("p1").catch((e: unknown) => e);
    expect(server.requests[0]?.headers["x-api-key"]).toBe(apiKey);
    for (const text of [inspect(client, { depth: 10, showHidden: true }), JSON.stringify(client), inspect(error, { depth: 10 }), JSON.stringify(error)]) {
      expect(text).not.toContain(apiKey);
    }
  });
});

describe("requests", () => {
  it("getPostMetricsHistory: GET /posts/{id}/metrics-history with days and limit; X-RateLimit-* in meta", async () => {
    server.script(json(200, { history: [] }, rate));
    const { data, meta } = await legacy().getPostMetricsHistory("p 1", { days: 7, limit: 100 });
    expect(server.requests[0]).toMatchObject({ method: "GET", path: "/api/v1/posts/p%201/metrics-history" });
    expect(Object.fromEntries(server.requests[0]?.url.searchParams ?? [])).toEqual({ days: "7", limit: "100" });
    expect(data).toEqual({ history: [] });
    expect(meta).toEqual({ status: 200, attempts: 1, rateLimit: { limit: 100, remaining: 97, reset: "1763776380" } });
  });

  it("X-RateLimit-* that are not counts read as undefined; a repeated one as its smallest", async () => {
    server.script(json(200, {}, { "x-ratelimit-limit": "400, 100", "x-ratelimit-remaining": "-1000000000", "x-ratelimit-reset": "1763776380" }));
    const { meta } = await legacy().getPostMetricsHistory("p1");
    expect(meta.rateLimit).toEqual({ limit: 100, remaining: undefined, reset: "1763776380" });
  });

  it("api: the typed client over the one operation shown, with the key", async () => {
    server.script(json(200, { history: [] }, rate));
    const { data } = await legacy().api.GET("/posts/{id}/metrics-history", { params: { path: { id: "p1" }, query: { limit: 5 } } });
    expect(data).toEqual({ history: [] });
    expect(server.requests[0]?.headers["x-api-key"]).toBe(apiKey);
  });

  it("request: any of the other operations, with no Idempotency-Key (the key-based API documents none)", async () => {
    server.script(json(201, { id: "lead_1" }, rate));
    const { data, meta } = await legacy().request<{ id: string }>("POST", "/leads", { body: { name: "x" } });
    expect(data?.id).toBe("lead_1");
    expect(meta.status).toBe(201);
    expect(server.requests[0]?.headers["idempotency-key"]).toBeUndefined();
  });
});

describe("errors: { error, code? }", () => {
  it.each([
    [400, { error: "limit must be at most 500." }, undefined],
    [401, { error: "Invalid or missing API key." }, undefined],
    [403, { error: "You do not have access to this resource." }, undefined],
    [404, { error: "Lead not found.", code: "LEAD_NOT_FOUND" }, "LEAD_NOT_FOUND"],
    [429, { error: "Rate limit exceeded." }, undefined],
  ])("%i becomes a LegacyApiError with the message and code", async (status, body, code) => {
    server.script(failure(status, body));
    const error = await legacy().getPostMetricsHistory("p1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LegacyApiError);
    expect(error).not.toBeInstanceOf(LegacySubscriptionRequiredError);
    expect(error).toMatchObject({ status, message: body.error, code, operation: "getPostMetricsHistory", rateLimit: { limit: 100, remaining: 97 } });
    expect(server.requests).toHaveLength(1);
  });

  it("402 (no active subscription) is its own class", async () => {
    server.script(failure(402, { error: "An active subscription is required." }));
    const error = await legacy().getPostMetricsHistory("p1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LegacySubscriptionRequiredError);
    expect(error).toMatchObject({ status: 402, name: "LegacySubscriptionRequiredError" });
  });

  it("a 429 with Retry-After is retried after it", async () => {
    server.script(failure(429, { error: "Rate limit exceeded." }, { "retry-after": "0" }), json(200, {}, rate));
    const { meta } = await legacy().getPostMetricsHistory("p1");
    expect(meta.attempts).toBe(2);
  });
});

describe("pages", () => {
  const page = (items: number[], extra: Record<string, unknown>): Handler => json(200, { data: items.map((id) => ({ id })), ...extra }, rate);

  it("asks page 1, 2, … and stops once page × limit ≥ total", async () => {
    server.script(page([1, 2], { page: 1, total: 5 }), page([3, 4], { page: 2, total: 5 }), page([5], { page: 3, total: 5 }), page([], { page: 4, total: 5 }));
    const ids: unknown[] = [];
    for await (const item of legacy().pages<{ id: number }>("/leads", { limit: 2, query: { status: "open" } })) ids.push(item.id);
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(server.requests.map((request) => Object.fromEntries(request.url.searchParams))).toEqual([
      { status: "open", page: "1", limit: "2" },
      { status: "open", page: "2", limit: "2" },
      { status: "open", page: "3", limit: "2" },
    ]);
  });

  it("stops on an empty page, on totalPages, and uses the list's own limit when it returns one", async () => {
    server.script(page([1], { page: 1, total: 50 }), page([], { page: 2, total: 50 }));
    expect(await collect(legacy().pages("/a"))).toHaveLength(1);
    expect(server.requests).toHaveLength(2);

    server.script(page([1], { page: 1, total: 50, totalPages: 2 }), page([2], { page: 2, total: 50, totalPages: 2 }), page([3], { page: 3, total: 50 }));
    expect(await collect(legacy().pages("/b"))).toHaveLength(2);

    server.script(page([1, 2, 3], { page: 1, total: 6, limit: 3 }), page([4, 5, 6], { page: 2, total: 6, limit: 3 }), page([7], { page: 3, total: 6 }));
    expect(await collect(legacy().pages("/c", { limit: 100 }))).toHaveLength(6);
    expect(server.requests).toHaveLength(2);
  });

  it("without a limit sends none, and stops once total items came", async () => {
    server.script(page([1, 2, 3], { page: 1, total: 4 }), page([4], { page: 2, total: 4 }), page([5], { page: 3, total: 4 }));
    expect(await collect(legacy().pages("/d"))).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }]);
    expect(server.requests.map((request) => Object.fromEntries(request.url.searchParams))).toEqual([{ page: "1" }, { page: "2" }]);
  });

  it("refuses a body that is not a page list, and a bad limit", async () => {
    server.script(json(200, { items: [] }, rate));
    await expect(collect(legacy().pages("/a"))).rejects.toBeInstanceOf(PlatformResponseError);
    expect(() => legacy().pages("/a", { limit: 0 })).toThrow(PlatformInputError);
  });
});
