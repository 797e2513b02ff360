import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCodes } from "../src/generated/platform.operations.js";
import {
  createPlatformClient,
  PlatformApiError,
  type PlatformError,
  PlatformInputError,
  PlatformRedirectError,
  PlatformResponseError,
  PlatformTimeoutError,
  SubscriptionRequiredError,
} from "../src/index.js";
import { apiError, json, startServer, type TestServer } from "./server.js";

const token = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJjb21wYW55In0.c2lnbmF0dXJlLXNlY3JldA";
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const client = (options: Partial<Parameters<typeof createPlatformClient>[0]> = {}) =>
  createPlatformClient({ accessToken: token, baseUrl: server.baseUrl, ...options });

async function rejection(promise: Promise<unknown>): Promise<PlatformError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!outcome) throw new Error("expected a rejection");
  return outcome as PlatformError;
}

describe("construction", () => {
  it.each([
    [{ accessToken: undefined }, "accessToken", /accessToken is missing/],
    [{ accessToken: "" }, "accessToken", /accessToken is missing/],
    [{ getAccessToken: () => token }, "accessToken", /either accessToken or getAccessToken/],
    [{ baseUrl: "nope" }, "baseUrl", /baseUrl is not an absolute URL/],
    [{ retry: { maxRetries: -1 } }, "retry.maxRetries", /non-negative integer/],
    [{ timeoutMs: 0 }, "timeoutMs", /positive/],
  ])("%j is refused naming %s", (options, field, message) => {
    let error: unknown;
    try {
      createPlatformClient({ accessToken: token, baseUrl: "https://api.example.com/api/oauth/v1", ...options });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PlatformInputError);
    expect(error).toMatchObject({ field });
    expect((error as Error).message).toMatch(message);
  });
});

describe("requests", () => {
  it("sends the bearer token and JSON; resolves { data, meta }", async () => {
    server.script(json(200, { delivered: true }));
    const { data, meta } = await client().testWebhook("wh_1", { note: "hi" });
    const [request] = server.requests;
    expect(request).toMatchObject({ method: "POST", path: "/api/oauth/v1/webhooks/wh_1/test", body: '{"note":"hi"}' });
    expect(request?.headers.authorization).toBe(`Bearer ${token}`);
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(data).toEqual({ delivered: true });
    expect(meta).toMatchObject({ status: 200, attempts: 1 });
    expect(meta.idempotencyKey).toMatch(uuid);
  });

  it("reads the metrics history with days and limit, without an Idempotency-Key", async () => {
    server.script(json(200, { points: [] }));
    const { meta } = await client().getPostMetricsHistory("post/1", { days: 30, limit: 500 });
    const [request] = server.requests;
    expect(request?.path).toBe("/api/oauth/v1/posts/post%2F1/metrics-history");
    expect(Object.fromEntries(request?.url.searchParams ?? [])).toEqual({ days: "30", limit: "500" });
    expect(request?.headers["idempotency-key"]).toBeUndefined();
    expect(meta.idempotencyKey).toBeUndefined();
  });

  it("resolves data undefined for an empty 2xx body, and refuses a body that is not JSON", async () => {
    server.script(json(204, undefined));
    expect((await client().voidInvoice("inv_1")).data).toBeUndefined();
    server.script((_request, response) => void response.writeHead(200, { "content-type": "text/html" }).end("<html>"));
    const error = await rejection(client().createInvoice({ amount: 1 }, { idempotencyKey: "invoice-0001" }));
    expect(error).toBeInstanceOf(PlatformResponseError);
    expect(error).toMatchObject({ operation: "createInvoice", status: 200, idempotencyKey: "invoice-0001" });
  });

  it("request(): any path, with the token and a key on writes", async () => {
    server.script(json(201, { id: "wh_2" }));
    const { data, meta } = await client().request<{ id: string }>("post", "/webhooks", { body: { url: "https://example.com/hook" } });
    expect(data?.id).toBe("wh_2");
    expect(server.requests[0]?.headers["idempotency-key"]).toBe(meta.idempotencyKey);
    expect(meta.idempotencyKey).toMatch(uuid);
    server.script(json(200, {}));
    await client().request("DELETE", "/webhooks/{id}", { pathParams: { id: "wh_2" } });
    expect(server.requests[0]).toMatchObject({ method: "DELETE", path: "/api/oauth/v1/webhooks/wh_2" });
    expect(server.requests[0]?.headers["idempotency-key"]).toBeUndefined();
  });

  it("resolves an operation with its own server (the discovery document) at that server: the host's root", async () => {
    server.script(json(200, { issuer: server.origin }));
    const { data } = await client().request("GET", "/.well-known/oauth-authorization-server");
    expect(data).toEqual({ issuer: server.origin });
    await client().api.GET("/.well-known/oauth-authorization-server");
    expect(server.requests.map((request) => request.path)).toEqual(["/.well-known/oauth-authorization-server", "/.well-known/oauth-authorization-server"]);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("refuses an empty id before sending", async () => {
    server.script(json(200, {}));
    const error = await rejection(client().sendInvoice(""));
    expect(error).toBeInstanceOf(PlatformInputError);
    expect(server.requests).toHaveLength(0);
  });
});

describe("idempotency", () => {
  it.each(["executePayout", "executeQuickPay", "createInvoice"] as const)("%s sends a new UUID Idempotency-Key per call", async (method) => {
    server.script(json(200, {}));
    const first = await client()[method]({ amount: 100 });
    const second = await client()[method]({ amount: 100 });
    const [a, b] = server.requests.map((request) => request.headers["idempotency-key"]);
    expect(a).toMatch(uuid);
    expect(b).toMatch(uuid);
    expect(a).not.toBe(b);
    expect([first.meta.idempotencyKey, second.meta.idempotencyKey]).toEqual([a, b]);
  });

  it("sends the same key on every retry of one call", async () => {
    server.script(apiError(429, "rate_limited", { "retry-after": "0" }), apiError(429, "rate_limited", { "retry-after": "0" }), json(200, { ok: true }));
    const { meta } = await client().executePayout({ amount: 100 });
    const keys = server.requests.map((request) => request.headers["idempotency-key"]);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(meta).toMatchObject({ attempts: 3, idempotencyKey: keys[0] });
    expect(server.requests.map((request) => request.body)).toEqual(Array(3).fill('{"amount":100}'));
  });

  it("uses the caller's key", async () => {
    server.script(json(200, {}));
    await client().sendInvoice("inv_1", undefined, { idempotencyKey: "send-inv_1-2025-11-21" });
    expect(server.requests[0]?.headers["idempotency-key"]).toBe("send-inv_1-2025-11-21");
  });

  it.each([
    ["7 characters", "a".repeat(7)],
    ["201 characters", "a".repeat(201)],
  ])("refuses a key of %s on the analytics history (8 to 200, from the description) before sending", async (_name, key) => {
    server.script(json(200, {}));
    const error = await rejection(client().createCampaignAnalyticsHistory("cmp_1", {}, { idempotencyKey: key }));
    expect(error).toBeInstanceOf(PlatformInputError);
    expect(error).toMatchObject({ field: "idempotencyKey" });
    expect(error.message).toContain("8 to 200 characters on createCampaignAnalyticsHistory");
    expect(server.requests).toHaveLength(0);
  });

  it("accepts the limits themselves", async () => {
    server.script(json(200, {}));
    await client().createCampaignAnalyticsHistory("cmp_1", {}, { idempotencyKey: "a".repeat(8) });
    await client().createCampaignAnalyticsHistory("cmp_1", {}, { idempotencyKey: "a".repeat(200) });
    expect(server.requests).toHaveLength(2);
  });

  it("api: the caller's required key is sent and checked; a missing optional one is filled in", async () => {
    server.script(json(200, {}));
    await client().api.POST("/payouts/execute", { params: { header: { "Idempotency-Key": "payout-0001" } }, body: {} });
    expect(server.requests[0]?.headers["idempotency-key"]).toBe("payout-0001");

    server.script(json(200, {}));
    await client().api.POST("/webhooks/{id}/test", { params: { path: { id: "wh_1" } } });
    expect(server.requests[0]?.headers["idempotency-key"]).toMatch(uuid);

    const error = await rejection(
      client().api.POST("/campaigns/{id}/analytics-history", { params: { path: { id: "c" }, header: { "Idempotency-Key": "short" } } }),
    );
    expect(error).toBeInstanceOf(PlatformInputError);
    expect(server.requests).toHaveLength(1);
  });

  it("api: no key and no token on the protocol endpoints, which answer RFC 6749 errors", async () => {
    server.script(json(400, { error: "invalid_grant", error_description: "bad code" }));
    const { error, response } = await client().api.POST("/token", { body: { grant_type: "client_credentials" }, bodySerializer: (body) => new URLSearchParams(body as Record<string, string>).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(response.status).toBe(400);
    expect(error).toEqual({ error: "invalid_grant", error_description: "bad code" });
    expect(server.requests[0]?.headers["idempotency-key"]).toBeUndefined();
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });
});

describe("cursor lists", () => {
  it("listWebhookDeliveries: cursor and limit in the query", async () => {
    server.script(json(200, { data: [{ id: "d1" }], nextCursor: "c+2/==", hasMore: true }));
    const { data } = await client().listWebhookDeliveries("wh_1", { cursor: "abc", limit: 2 });
    expect(Object.fromEntries(server.requests[0]?.url.searchParams ?? [])).toEqual({ cursor: "abc", limit: "2" });
    expect(data).toEqual({ data: [{ id: "d1" }], nextCursor: "c+2/==", hasMore: true });
  });

  it("webhookDeliveries: every delivery, following nextCursor verbatim until hasMore is false", async () => {
    server.script(
      json(200, { data: [{ id: "d1" }, { id: "d2" }], nextCursor: "c+2/==", hasMore: true }),
      json(200, { data: [{ id: "d3" }], nextCursor: "c3", hasMore: true }),
      json(200, { data: [{ id: "d4" }], nextCursor: null, hasMore: false }),
      json(500, { error: { code: "internal", message: "should not be asked", requestId: "x" } }),
    );
    const ids: unknown[] = [];
    for await (const delivery of client().webhookDeliveries("wh_1", { limit: 2 })) ids.push(delivery.id);
    expect(ids).toEqual(["d1", "d2", "d3", "d4"]);
    expect(server.requests.map((request) => request.url.searchParams.get("cursor"))).toEqual([null, "c+2/==", "c3"]);
    expect(server.requests.every((request) => request.url.searchParams.get("limit") === "2")).toBe(true);
  });

  it.each([
    ["another object", { items: [] }],
    ["null", null],
    ["an array", []],
    ["a page without hasMore", { data: [], nextCursor: null }],
  ])("refuses %s for a cursor page, through the method and api alike, naming the operation", async (_name, body) => {
    for (const call of [() => client().listWebhookDeliveries("wh_1"), () => client().api.GET("/webhooks/{id}/deliveries", { params: { path: { id: "wh_1" } } })]) {
      server.script(json(200, body));
      const error = await rejection(call());
      expect(error).toBeInstanceOf(PlatformResponseError);
      expect(error).toMatchObject({ operation: "listWebhookDeliveries", status: 200 });
      expect(error.message).toBe("listWebhookDeliveries answered 200 with a body that is not a cursor page");
    }
  });
});

// Statuses for the registered codes whose status the reference does not show.
const statusOf = (code: string) => errorCodes[code as keyof typeof errorCodes].status ?? { invalid_request: 400, conflict: 409, internal: 500 }[code] ?? 500;
const challenges: Record<string, string> = {
  unauthorized: 'Bearer error="invalid_token", scope="campaigns:read", resource_metadata="https://api.example.com/.well-known/oauth-protected-resource"',
  insufficient_scope: 'Bearer error="insufficient_scope", scope="payouts:write", resource_metadata="https://api.example.com/.well-known/oauth-protected-resource"',
};

describe("every error code becomes a typed PlatformApiError", () => {
  it.each(Object.keys(errorCodes))("%s", async (code) => {
    const sent = challenges[code];
    const headers: Record<string, string> = sent ? { "www-authenticate": sent } : {};
    server.script(apiError(statusOf(code), code, code === "rate_limited" ? { ...headers, "retry-after": "7" } : headers, { scope: "payouts:write" }));
    const error = await rejection(client({ retry: { maxRetries: 0 } }).executePayout({}, { idempotencyKey: "payout-key-1" }));
    expect(error).toBeInstanceOf(PlatformApiError);
    expect(error).toMatchObject({
      name: code === "subscription_required" ? "SubscriptionRequiredError" : "PlatformApiError",
      operation: "executePayout",
      status: statusOf(code),
      code,
      message: `${code} happened`,
      requestId: `req_${code}`,
      meta: { scope: "payouts:write" },
      retryAfterMs: code === "rate_limited" ? 7000 : undefined,
      idempotencyKey: "payout-key-1",
    });
    const { challenge } = error as PlatformApiError;
    if (code === "unauthorized") {
      expect(challenge).toMatchObject({ error: "invalid_token", scope: "campaigns:read", resourceMetadata: "https://api.example.com/.well-known/oauth-protected-resource" });
    } else if (code === "insufficient_scope") {
      expect(challenge).toMatchObject({ error: "insufficient_scope", scope: "payouts:write", scopes: ["payouts:write"] });
    } else {
      expect(challenge).toBeUndefined();
    }
    expect(error instanceof SubscriptionRequiredError).toBe(code === "subscription_required");
    expect(server.requests).toHaveLength(1);
  });

  it("402 subscription_required is its own class, and is not retried", async () => {
    server.script(apiError(402, "subscription_required"));
    const error = await rejection(client().getPostMetricsHistory("p1"));
    expect(error).toBeInstanceOf(SubscriptionRequiredError);
    expect(error).toBeInstanceOf(PlatformApiError);
    expect((error as SubscriptionRequiredError).code).toBe("subscription_required");
    expect(server.requests).toHaveLength(1);
  });

  it("a body that is not the envelope still gives status and a message, with code undefined", async () => {
    server.script((_request, response) => void response.writeHead(502, { "content-type": "text/plain" }).end("Bad Gateway"));
    const error = (await rejection(client().getPostMetricsHistory("p1"))) as PlatformApiError;
    expect(error).toMatchObject({ status: 502, code: undefined, requestId: undefined });
    expect(error.message).toContain("HTTP 502: Bad Gateway");
  });
});

describe("retries", () => {
  it("waits exactly Retry-After on a 429", async () => {
    server.script(apiError(429, "rate_limited", { "retry-after": "1" }), json(200, {}));
    const { meta } = await client().getPostMetricsHistory("p1");
    const [first, second] = server.requests;
    const waited = (second?.at ?? 0) - (first?.at ?? 0);
    expect(meta.attempts).toBe(2);
    expect(waited).toBeGreaterThanOrEqual(995);
    expect(waited).toBeLessThan(1900);
  });

  it("gives up after maxRetries (default 4) with the rate_limited error", async () => {
    server.script(apiError(429, "rate_limited", { "retry-after": "0" }));
    const error = await rejection(client().getPostMetricsHistory("p1"));
    expect(error).toMatchObject({ code: "rate_limited", retryAfterMs: 0 });
    expect(server.requests).toHaveLength(5);
  });

  it.each([
    ["a 429 without Retry-After", apiError(429, "rate_limited")],
    ["a 500", apiError(500, "internal", { "retry-after": "0" })],
    ["a 401", apiError(401, "unauthorized")],
  ])("does not retry %s", async (_name, handler) => {
    server.script(handler, json(200, {}));
    await rejection(client().getPostMetricsHistory("p1"));
    expect(server.requests).toHaveLength(1);
  });

  it("fails at once, retryable, when Retry-After is beyond maxRetryWaitMs (default 60 s)", async () => {
    server.script(apiError(429, "rate_limited", { "retry-after": "61" }), json(200, {}));
    const error = await rejection(client().getPostMetricsHistory("p1"));
    expect(error).toMatchObject({ code: "rate_limited", retryable: true, retryAfterMs: 61_000 });
    expect(server.requests).toHaveLength(1);
    server.script(apiError(429, "rate_limited", { "retry-after": "0.05" }), json(200, {}));
    await rejection(client({ maxRetryWaitMs: 10 }).getPostMetricsHistory("p1"));
    expect(server.requests).toHaveLength(1);
  });

  it("times out with the write's idempotency key, without retrying", async () => {
    server.script(() => undefined);
    const error = await rejection(client({ timeoutMs: 50 }).executeQuickPay({}, { idempotencyKey: "quick-pay-1" }));
    expect(error).toBeInstanceOf(PlatformTimeoutError);
    expect(error).toMatchObject({ operation: "executeQuickPay", timeoutMs: 50, idempotencyKey: "quick-pay-1" });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(server.requests.length).toBeLessThanOrEqual(1);
  });
});

describe("redirects", () => {
  it("a write redirected to another origin: PlatformRedirectError with its idempotency key; the token stays home", async () => {
    const elsewhere = await startServer();
    try {
      server.script((_request, response) => void response.writeHead(307, { location: `${elsewhere.origin}/api/oauth/v1/payouts/quick-pay` }).end());
      const error = await rejection(client().executeQuickPay({}, { idempotencyKey: "quick-pay-2" }));
      expect(error).toBeInstanceOf(PlatformRedirectError);
      expect(error).toMatchObject({ operation: "executeQuickPay", refusal: { fromOrigin: server.origin, toOrigin: elsewhere.origin }, idempotencyKey: "quick-pay-2" });
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });
});

describe("getAccessToken", () => {
  it("is called for every request, retries included", async () => {
    let calls = 0;
    const api = client({ accessToken: undefined, getAccessToken: async () => `token-${++calls}` });
    server.script(apiError(429, "rate_limited", { "retry-after": "0" }), json(200, {}));
    await api.getPostMetricsHistory("p1");
    server.script(json(200, {}));
    await api.api.GET("/posts/{id}/metrics-history", { params: { path: { id: "p1" } } });
    expect(calls).toBe(3);
    expect(server.requests.map((request) => request.headers.authorization)).toEqual(["Bearer token-3"]);
  });

  it("an empty token is refused before sending", async () => {
    server.script(json(200, {}));
    const error = await rejection(client({ accessToken: undefined, getAccessToken: () => "" }).getPostMetricsHistory("p1"));
    expect(error).toMatchObject({ field: "getAccessToken" });
    expect(server.requests).toHaveLength(0);
  });
});

describe("the token never leaks", () => {
  it("is absent from util.inspect, JSON.stringify, errors and logs", async () => {
    const lines: string[] = [];
    const log = (message: string, details?: unknown) => void lines.push(message, JSON.stringify(details));
    const api = client({ logger: { debug: log, info: log, warn: log, error: log } });
    server.script(apiError(429, "rate_limited", { "retry-after": "0" }), apiError(401, "unauthorized", { "www-authenticate": challenges.unauthorized as string }));
    const error = await rejection(api.executePayout({ amount: 1 }));
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${token}`);
    const secret = token.slice(10);
    for (const text of [
      inspect(api, { depth: 10, showHidden: true }),
      JSON.stringify(api),
      inspect(error, { depth: 10, showHidden: true }),
      JSON.stringify(error),
      String(error.stack),
      lines.join("\n"),
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(lines.join("\n")).toContain("platform: executePayout answered 429; retry 1 of 4");
  });
});
