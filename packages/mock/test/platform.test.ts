// The OAuth platform API on the real gateway: bearer tokens, idempotent writes, the per-token limit, magic tokens; every
// documented body checked with @content-scraper/validators/platform.
import { validateResponse } from "@content-scraper/validators/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../src/generated/platform.operations.js";
import { platformTokens, type RunningMock } from "../src/index.js";
import { start } from "./support.js";

type Id = keyof typeof operations;
let mock: RunningMock;
beforeAll(async () => {
  mock = await start();
});
afterAll(() => mock.close());

let tokens = 0;
const freshToken = () => `sandbox_token_${++tokens}_${process.pid}`;

/** Calls an operation and validates the answer against its documented response. */
async function call(id: Id, { path, token, headers = {}, body, query = "" }: { path?: string; token?: string | null; headers?: Record<string, string>; body?: unknown; query?: string } = {}) {
  const rules = operations[id];
  const url = `${mock.baseUrls.platform}${path ?? rules.path.replace("{id}", "id_1")}${query}`;
  const response = await fetch(url, {
    method: rules.method,
    redirect: "manual",
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const contentType = response.headers.get("content-type") ?? "";
  const parsed = contentType.includes("json") ? JSON.parse(text) : text;
  if (text !== "" && !contentType.includes("html")) {
    expect(validateResponse(id, response.status, parsed, { contentType }), `${id} ${response.status}: ${text}`).toEqual({ valid: true });
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

const ids = Object.keys(operations) as Id[];
const protocol = ids.filter((id) => (operations[id] as { security?: readonly string[] }).security?.length === 0);
const resources = ids.filter((id) => !protocol.includes(id));
const keyed = (id: Id) => (operations[id] as { idempotencyKey?: { required: boolean } }).idempotencyKey;
const keyFor = (id: Id): Record<string, string> => (keyed(id) ? { "idempotency-key": `key-${id}-${++tokens}-abcdefgh` } : {});

describe("protocol endpoints", () => {
  it.each(protocol.filter((id) => id !== "authorizeClient"))("%s answers without a token", async (id) => {
    const answer = await call(id, { body: operations[id].method === "POST" ? {} : undefined });
    expect(answer.status).toBe(200);
  });

  it("authorize redirects with a code, the state and iss, and renders the HTML page for an untrusted client", async () => {
    const query = "?client_id=c1&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&code_challenge=abc&code_challenge_method=S256&scope=posts%3Aread";
    const redirect = await call("authorizeClient", { query });
    expect(redirect.status).toBe(302);
    const location = new URL(redirect.headers.get("location") as string);
    expect(location.searchParams.get("code")).toMatch(/^sandbox_code_/);
    expect(location.searchParams.get("state")).toBe("s1");
    expect(location.searchParams.get("iss")).toBeTruthy();
    const plain = await call("authorizeClient", { query: "?client_id=c1&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&code_challenge=abc&code_challenge_method=plain" });
    expect(new URL(plain.headers.get("location") as string).searchParams.get("error")).toBe("invalid_request");
    const page = await call("authorizeClient", { query: "?client_id=c1" });
    expect(page.status).toBe(400);
    expect(page.headers.get("content-type")).toContain("text/html");
  });
});

describe("resource endpoints", () => {
  it.each(resources)("%s answers its documented success with any token, and rate-limit headers", async (id) => {
    const answer = await call(id, { token: freshToken(), headers: keyFor(id), body: operations[id].method === "POST" ? {} : undefined });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-ratelimit-limit")).toBe("600");
  });

  it.each(resources)("%s answers 401 unauthorized with a challenge without a token", async (id) => {
    for (const token of [null, " ", platformTokens.expired]) {
      const answer = await call(id, { token, headers: token === " " ? { authorization: "Bearer " } : {} });
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe("unauthorized");
      expect(answer.body.error.requestId).toMatch(/^req_/);
      expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token", resource_metadata="http:\/\/.+"$/);
    }
  });

  it("answers the magic tokens with 402 subscription_required and 403 insufficient_scope", async () => {
    const lapsed = await call("getPostMetricsHistory", { token: platformTokens.noSubscription });
    expect([lapsed.status, lapsed.body.error.code]).toEqual([402, "subscription_required"]);
    const scoped = await call("createInvoice", { token: platformTokens.insufficientScope, body: {} });
    expect([scoped.status, scoped.body.error.code, scoped.body.error.meta]).toEqual([403, "insufficient_scope", { scope: "invoices:write" }]);
    expect(scoped.headers.get("www-authenticate")).toMatch(/^Bearer error="insufficient_scope", scope="invoices:write", resource_metadata=/);
  });

  it("answers 404 not_found for an undocumented path", async () => {
    const response = await fetch(`${mock.baseUrls.platform}/nowhere`, { headers: { authorization: "Bearer t" } });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });

  it("checks list and history limits", async () => {
    const tooMany = await call("listWebhookDeliveries", { token: freshToken(), query: "?limit=101" });
    expect([tooMany.status, tooMany.body.error.code]).toEqual([400, "invalid_request"]);
    expect((await call("getPostMetricsHistory", { token: freshToken(), query: "?limit=500" })).status).toBe(200);
    expect((await call("getPostMetricsHistory", { token: freshToken(), query: "?limit=501" })).status).toBe(400);
  });
});

describe("idempotency", () => {
  const writes = resources.filter((id) => keyed(id));

  it.each(writes)("%s replays the same key and body, and answers 409 for a different body", async (id) => {
    const token = freshToken();
    const headers = { "idempotency-key": `replay-${id}-key` };
    const first = await call(id, { token, headers, body: { amount: 1 } });
    const replay = await call(id, { token, headers, body: { amount: 1 } });
    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const conflict = await call(id, { token, headers, body: { amount: 2 } });
    expect([conflict.status, conflict.body.error.code]).toEqual([409, "idempotency_conflict"]);
  });

  it.each(writes.filter((id) => keyed(id)?.required))("%s answers 400 invalid_request without its required key", async (id) => {
    const answer = await call(id, { token: freshToken(), body: {} });
    expect([answer.status, answer.body.error.code]).toEqual([400, "invalid_request"]);
  });

  it("enforces the analytics-history key length (8 to 200)", async () => {
    const short = await call("createCampaignAnalyticsHistory", { token: freshToken(), headers: { "idempotency-key": "short" }, body: {} });
    expect(short.status).toBe(400);
  });
});

it("limits a token to 600 requests a minute, with Retry-After on the 429", async () => {
  const token = freshToken();
  const statuses: number[] = [];
  // A minute of allowance at once, refilled continuously (10 a second): the 429 comes a little after the 600th request.
  for (let index = 0; index < 700 && statuses.at(-1) !== 429; index++) {
    const response = await fetch(`${mock.baseUrls.platform}/posts/p/metrics-history`, { headers: { authorization: `Bearer ${token}` } });
    statuses.push(response.status);
    if (response.status === 429) {
      const body = (await response.json()) as { error: { code: string } };
      expect(validateResponse("getPostMetricsHistory", 429, body, { contentType: "application/json" })).toEqual({ valid: true });
      expect(body.error.code).toBe("rate_limited");
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    } else await response.arrayBuffer();
  }
  expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(600);
  expect(statuses.at(-1)).toBe(429);
});
