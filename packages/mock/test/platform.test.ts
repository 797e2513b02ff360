// The OAuth platform API on the real gateway: bearer tokens, idempotent writes, the per-token limit, magic tokens; every
// documented body checked with @content-scraper/validators/platform.
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { createRequire } from "node:module";
import { validateResponse } from "@content-scraper/validators/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../src/generated/platform.operations.js";
import { platformTokens, type RunningMock } from "../src/index.js";
import { serverPath } from "../src/surface-kit.js";
import { start } from "./support.js";

type Examples = { content: { "application/json": { examples: Record<string, { value: unknown }> } } };
type Deref = { paths: Record<string, Record<string, { responses: Record<string, Examples> }>> };
const description = JSON.parse(readFileSync(createRequire(import.meta.url).resolve("@content-scraper/spec/platform.deref.json"), "utf8")) as Deref;
const exampleOf = (id: Id) => {
  const rules = operations[id];
  return Object.values(description.paths[rules.path]?.[rules.method.toLowerCase()]?.responses["2XX"]?.content["application/json"].examples ?? {})[0]?.value;
};
const metadataExample = exampleOf("getAuthorizationServerMetadata") as Record<string, unknown>;
const tokenExample = exampleOf("requestToken");
const redirectUri = "https://app.example/cb";
type Grant = { clientId: string; verifier: string; code: string };

/** A GET with another Host header than the address connected to (fetch does not let a caller set it). */
function getWithHost(url: string, host: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { host } }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.on("end", () => resolve(JSON.parse(text)));
    })
      .on("error", reject)
      .end();
  });
}

type Id = keyof typeof operations;
let mock: RunningMock;
beforeAll(async () => {
  mock = await start();
});
afterAll(() => mock.close());

let tokens = 0;
const freshToken = () => `sandbox_token_${++tokens}_${process.pid}`;

/** Calls an operation and validates the answer against its documented response. */
async function call(
  id: Id,
  { path, token, headers = {}, body, form, query = "" }: { path?: string; token?: string | null; headers?: Record<string, string>; body?: unknown; form?: Record<string, string>; query?: string } = {},
) {
  const rules = operations[id];
  // An operation with its own server (the discovery document) is served at that server's path, not under the base path.
  const base = "server" in rules ? mock.url + serverPath(rules.server) : mock.baseUrls.platform;
  const url = `${base}${path ?? rules.path.replace("{id}", "id_1")}${query}`;
  const type = form ? "application/x-www-form-urlencoded" : body === undefined ? undefined : "application/json";
  const response = await fetch(url, {
    method: rules.method,
    redirect: "manual",
    headers: { ...(type ? { "content-type": type } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: form ? new URLSearchParams(form).toString() : body === undefined ? undefined : JSON.stringify(body),
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

describe("discovery", () => {
  it("serves the metadata at the host's root, its own server, and answers 404 not_found under the base path", async () => {
    expect((await call("getAuthorizationServerMetadata")).status).toBe(200);
    const under = await fetch(`${mock.baseUrls.platform}/.well-known/oauth-authorization-server`);
    expect(under.status).toBe(404);
    expect(((await under.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });

  it("names the origin it was asked on as issuer, the endpoints under it, and keeps the example's other fields", async () => {
    const { body } = await call("getAuthorizationServerMetadata");
    const endpoints = (origin: string) => ({
      issuer: origin,
      authorization_endpoint: `${origin}/api/oauth/v1/authorize`,
      token_endpoint: `${origin}/api/oauth/v1/token`,
      registration_endpoint: `${origin}/api/oauth/v1/register`,
      revocation_endpoint: `${origin}/api/oauth/v1/revoke`,
    });
    expect(body).toEqual({ ...metadataExample, ...endpoints(mock.url) });
    expect(await getWithHost(`${mock.url}/.well-known/oauth-authorization-server`, "sandbox.test:8080")).toEqual({
      ...metadataExample,
      ...endpoints("http://sandbox.test:8080"),
    });
  });
});

describe("registration", () => {
  const metadata = {
    client_name: "Sandbox test",
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
  };

  it("answers RFC 7591's 201, reflecting the metadata sent, with a client_id that follows from the seed and body", async () => {
    const registered = await call("registerClient", { body: metadata });
    expect(registered.status).toBe(201);
    expect(registered.body).toEqual({ client_id: expect.stringMatching(/^sandbox_client_[0-9a-f]{24}$/), ...metadata });
    expect((await call("registerClient", { body: metadata })).body.client_id).toBe(registered.body.client_id);
    expect((await call("registerClient", { body: { ...metadata, client_name: "Other" } })).body.client_id).not.toBe(registered.body.client_id);
  });
});

describe("authorize", () => {
  it("redirects with a code, the state and iss, and renders the HTML page for an untrusted client", async () => {
    const query = "?client_id=c1&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s1&code_challenge=abc&code_challenge_method=S256&scope=posts%3Aread";
    const redirect = await call("authorizeClient", { query });
    expect(redirect.status).toBe(302);
    const location = new URL(redirect.headers.get("location") as string);
    expect(location.searchParams.get("code")).toMatch(/^sandbox_code_/);
    expect(location.searchParams.get("state")).toBe("s1");
    expect(location.searchParams.get("iss")).toBe(mock.url);
    const plain = await call("authorizeClient", { query: "?client_id=c1&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&code_challenge=abc&code_challenge_method=plain" });
    expect(new URL(plain.headers.get("location") as string).searchParams.get("error")).toBe("invalid_request");
    const page = await call("authorizeClient", { query: "?client_id=c1" });
    expect(page.status).toBe(400);
    expect(page.headers.get("content-type")).toContain("text/html");
  });
});

describe("token", () => {
  let clients = 0;
  /** An authorization for a fresh client and verifier: the code from the redirect. */
  async function authorized() {
    const clientId = `client_${++clients}`;
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const query = `?${new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256" })}`;
    const location = (await call("authorizeClient", { query })).headers.get("location") as string;
    return { clientId, verifier, code: new URL(location).searchParams.get("code") as string };
  }
  const exchange = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    call("requestToken", { form: { grant_type: "authorization_code", redirect_uri: redirectUri, ...fields }, headers });

  it("exchanges a code for the documented token when the verifier, the client and redirect_uri agree", async () => {
    const { clientId, verifier, code } = await authorized();
    const issued = await exchange({ code, code_verifier: verifier, client_id: clientId });
    expect([issued.status, issued.body]).toEqual([200, tokenExample]);
    expect(issued.headers.get("content-type")).toContain("application/json");
    const basic = await authorized();
    const credentials = Buffer.from(`${basic.clientId}:secret`).toString("base64");
    expect((await exchange({ code: basic.code, code_verifier: basic.verifier }, { authorization: `Basic ${credentials}` })).status).toBe(200);
  });

  it.each([
    ["a wrong verifier", (grant: Grant) => ({ code: grant.code, client_id: grant.clientId, code_verifier: randomBytes(32).toString("base64url") }), /code_verifier/],
    ["an unknown code", (grant: Grant) => ({ code: "sandbox_code_unknown", client_id: grant.clientId, code_verifier: grant.verifier }), /unknown/],
    ["another redirect_uri", (grant: Grant) => ({ code: grant.code, client_id: grant.clientId, code_verifier: grant.verifier, redirect_uri: `${redirectUri}/other` }), /redirect_uri/],
    ["another client", (grant: Grant) => ({ code: grant.code, client_id: "someone_else", code_verifier: grant.verifier }), /another client/],
  ])("answers 400 invalid_grant to %s", async (_case, fields, description) => {
    const refused = await exchange(fields(await authorized()));
    expect([refused.status, refused.body]).toEqual([400, { error: "invalid_grant", error_description: expect.stringMatching(description) }]);
  });

  it("answers 400 invalid_grant to a code used before, even by its own client and verifier", async () => {
    const { clientId, verifier, code } = await authorized();
    expect((await exchange({ code, code_verifier: verifier, client_id: clientId })).status).toBe(200);
    const reused = await exchange({ code, code_verifier: verifier, client_id: clientId });
    expect([reused.status, reused.body]).toEqual([400, { error: "invalid_grant", error_description: "The authorization code was already used." }]);
  });

  it("answers refresh_token and client_credentials with the documented token, and other grants unsupported_grant_type", async () => {
    for (const grant of ["refresh_token", "client_credentials"]) {
      expect(await call("requestToken", { form: { grant_type: grant, refresh_token: "rt_1" } })).toMatchObject({ status: 200, body: tokenExample });
    }
    const json = await call("requestToken", { body: { grant_type: "client_credentials" } });
    expect([json.status, json.body.error]).toEqual([400, "unsupported_grant_type"]);
    expect((await call("requestToken", { form: { grant_type: "password" } })).body.error).toBe("unsupported_grant_type");
  });

  it("revokes with an empty 200", async () => {
    const revoked = await call("revokeToken", { form: { token: "rt_1" } });
    expect([revoked.status, revoked.body]).toEqual([200, ""]);
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
  const get = () => fetch(`${mock.baseUrls.platform}/posts/p/metrics-history`, { headers: { authorization: `Bearer ${token}` } });
  const started = Date.now();
  // A minute of allowance at once: all of it answers.
  const status = async () => {
    const response = await get();
    await response.arrayBuffer();
    return response.status;
  };
  const burst = await Promise.all(Array.from({ length: 600 }, status));
  expect(burst.filter((status) => status !== 200)).toEqual([]);
  // The bucket refills continuously (10 a second) while the burst runs, however slow the machine: allow for that.
  let limited = await get();
  let extra = 0;
  for (; limited.status === 200 && extra < 1000; extra++) {
    await limited.arrayBuffer();
    limited = await get();
  }
  expect(extra).toBeLessThanOrEqual(1 + ((Date.now() - started) / 60_000) * 600);
  expect(limited.status).toBe(429);
  const body = (await limited.json()) as { error: { code: string } };
  expect(validateResponse("getPostMetricsHistory", 429, body, { contentType: "application/json" })).toEqual({ valid: true });
  expect(body.error.code).toBe("rate_limited");
  expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
});
