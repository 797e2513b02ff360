// The OAuth platform API on the real gateway: bearer tokens, idempotent writes, the per-token limit, magic tokens; every
// documented body checked with @content-scraper/validators/platform.
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { createRequire } from "node:module";
import { validateResponse } from "@content-scraper/validators/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idempotencyRetentionMs, oauth, operations } from "../src/generated/platform.operations.js";
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
const accessTokenLifetime = oauth.OAuth2.accessToken.expiresInSeconds;
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

let clients = 0;
/** A client registered for these grants, with a name of its own (so a client_id of its own). */
async function registered(grantTypes = ["authorization_code", "refresh_token"]): Promise<string> {
  const answer = await call("registerClient", { body: { client_name: `client ${++clients}`, redirect_uris: [redirectUri], grant_types: grantTypes } });
  expect(answer.status).toBe(201);
  return answer.body.client_id;
}

/** An authorization for a client: the code from the redirect, and the verifier. */
async function authorized(clientId: string, scope = "posts:read invoices:write"): Promise<Grant> {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const query = `?${new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", scope })}`;
  const location = (await call("authorizeClient", { query })).headers.get("location") as string;
  return { clientId, verifier, code: new URL(location).searchParams.get("code") as string };
}

const exchange = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  call("requestToken", { form: { grant_type: "authorization_code", redirect_uri: redirectUri, ...fields }, headers });

describe("registration", () => {
  const metadata = {
    client_name: "Sandbox test",
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
  };

  it("answers RFC 7591's 201, reflecting the metadata sent, with a client_id that follows from the seed and body", async () => {
    const answer = await call("registerClient", { body: metadata });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ client_id: expect.stringMatching(/^sandbox_client_[0-9a-f]{24}$/), ...metadata });
    expect((await call("registerClient", { body: metadata })).body.client_id).toBe(answer.body.client_id);
    expect((await call("registerClient", { body: { ...metadata, client_name: "Other" } })).body.client_id).not.toBe(answer.body.client_id);
  });

  it.each([
    ["redirect_uris not an array", { ...metadata, redirect_uris: redirectUri }, "invalid_redirect_uri"],
    ["a redirect URI that is not absolute", { ...metadata, redirect_uris: ["/cb"] }, "invalid_redirect_uri"],
    ["grant_types not an array", { ...metadata, grant_types: "refresh_token" }, "invalid_client_metadata"],
    ["a body that is an array", [metadata], "invalid_client_metadata"],
    ["a body that is a string", "metadata", "invalid_client_metadata"],
  ])("answers 400 to %s", async (_case, body, error) => {
    const answer = await call("registerClient", { body });
    expect([answer.status, answer.body.error]).toEqual([400, error]);
  });

  it.each([
    ["truncated JSON", '{"redirect_uris": ["https://app'],
    // A raw NUL byte inside a JSON string: not JSON.
    ["a NUL byte", '{"client_name": "a\u0000b"}'],
  ])("answers 400 invalid_client_metadata to %s", async (_case, raw) => {
    const response = await fetch(`${mock.baseUrls.platform}/register`, { method: "POST", headers: { "content-type": "application/json" }, body: raw });
    const body = (await response.json()) as { error: string };
    expect([response.status, body.error]).toEqual([400, "invalid_client_metadata"]);
  });

  it("refuses a redirect URI that is no absolute URI with invalid_redirect_uri (RFC 7591 §3.2.2)", async () => {
    const answer = await call("registerClient", { body: { redirect_uris: ["/relative/callback"] } });
    expect([answer.status, answer.body.error]).toEqual([400, "invalid_redirect_uri"]);
  });
});

describe("authorize", () => {
  // An S256 challenge (RFC 7636 §4.2, appendix B): 43 base64url characters.
  const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
  it("redirects a registered client with a code, the state and iss", async () => {
    const clientId = await registered();
    const query = `?${new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirectUri, state: "s1", code_challenge: challenge, code_challenge_method: "S256", scope: "posts:read" })}`;
    const redirect = await call("authorizeClient", { query });
    expect(redirect.status).toBe(302);
    const location = new URL(redirect.headers.get("location") as string);
    expect(location.searchParams.get("code")).toMatch(/^sandbox_code_/);
    expect(location.searchParams.get("state")).toBe("s1");
    expect(location.searchParams.get("iss")).toBe(mock.url);
  });

  it.each([
    ["no S256 PKCE", { code_challenge_method: "plain" }, "invalid_request"],
    ["a code_challenge shorter than 43 characters (RFC 7636 §4.2)", { code_challenge: "abc" }, "invalid_request"],
    ["a code_challenge outside A-Z a-z 0-9 - . _ ~", { code_challenge: `${challenge.slice(1)}+` }, "invalid_request"],
    ["an unknown scope", { scope: "everything:write" }, "invalid_scope"],
    ["no response_type", { response_type: undefined }, "invalid_request"],
    ["a response_type other than code", { response_type: "token" }, "unsupported_response_type"],
  ])("redirects a recoverable error, with the state and iss: %s", async (_case, change, error) => {
    const sent: Record<string, string | undefined> = { response_type: "code", client_id: await registered(), redirect_uri: redirectUri, state: "s2", code_challenge: challenge, code_challenge_method: "S256", ...change };
    const answer = await call("authorizeClient", { query: `?${new URLSearchParams(Object.entries(sent).filter((entry): entry is [string, string] => entry[1] !== undefined))}` });
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get("location") as string);
    expect([location.searchParams.get("error"), location.searchParams.get("state"), location.searchParams.get("iss"), location.searchParams.get("code")]).toEqual([error, "s2", mock.url, null]);
  });

  it("redirects to the sandbox's own callback, which answers the authorization response's parameters as JSON", async () => {
    const callback = `${mock.url}/__sandbox/oauth/callback`;
    const registration = await call("registerClient", { body: { redirect_uris: [callback] } });
    const query = new URLSearchParams({ response_type: "code", client_id: registration.body.client_id, redirect_uri: callback, state: "s3", code_challenge: challenge, code_challenge_method: "S256" });
    // As a browser or respect does: the redirect is followed.
    const followed = await fetch(`${mock.baseUrls.platform}/authorize?${query}`);
    expect([followed.status, followed.url.split("?")[0]]).toEqual([200, callback]);
    expect(await followed.json()).toEqual({ code: expect.stringMatching(/^sandbox_code_/), state: "s3", iss: mock.url });
  });

  it.each([
    ["an unregistered client_id", async () => ({ client_id: "sandbox_client_unknown", redirect_uri: redirectUri })],
    ["a redirect_uri the client did not register", async () => ({ client_id: await registered(), redirect_uri: "https://elsewhere.example/cb" })],
    ["no client_id", async () => ({ redirect_uri: redirectUri })],
  ])("renders the documented HTML error page (400) for %s", async (_case, params) => {
    const query = `?${new URLSearchParams({ response_type: "code", ...(await params()), code_challenge: challenge, code_challenge_method: "S256" })}`;
    const page = await call("authorizeClient", { query });
    expect(page.status).toBe(400);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("location")).toBeNull();
  });
});

describe("token", () => {
  it("takes the description's example client and its example code as printed, any number of times, after a reset too", async () => {
    const printed = (description as unknown as { paths: Record<string, Record<string, { parameters?: Array<{ name: string; example?: string }>; requestBody?: { content: Record<string, { examples: Record<string, { value: Record<string, string> }> }> } }>> }).paths;
    const example = (name: string) => printed["/authorize"]?.get?.parameters?.find((parameter) => parameter.name === name)?.example as string;
    const query = `?${new URLSearchParams(["response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge", "code_challenge_method"].map((name) => [name, example(name)]))}`;
    const form = printed["/token"]?.post?.requestBody?.content["application/x-www-form-urlencoded"]?.examples.AuthorizationCode?.value as Record<string, string>;
    for (const round of [1, 2]) {
      const redirect = await call("authorizeClient", { query });
      expect([round, redirect.status, new URL(redirect.headers.get("location") as string).searchParams.get("code")]).toEqual([round, 302, expect.stringMatching(/^sandbox_code_/)]);
      const issued = await call("requestToken", { form });
      expect([round, issued.status, issued.body.scope]).toEqual([round, 200, example("scope")]);
      await mock.reset();
    }
    expect((await exchange({ ...form, code: "sandbox_code_unknown" })).body.error).toBe("invalid_grant");
  });

  it("exchanges a code for a token of the granted scopes, lasting the description's lifetime", async () => {
    const grant = await authorized(await registered(), "posts:read campaigns:read");
    const issued = await exchange({ code: grant.code, code_verifier: grant.verifier, client_id: grant.clientId });
    expect(issued.status).toBe(200);
    expect(issued.body).toEqual({
      access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      token_type: "Bearer",
      expires_in: accessTokenLifetime,
      scope: "posts:read campaigns:read",
      refresh_token: expect.stringMatching(/^sandbox_rt_/),
    });
    const claims = JSON.parse(Buffer.from(issued.body.access_token.split(".")[1], "base64url").toString());
    expect(claims).toMatchObject({ client_id: grant.clientId, scope: "posts:read campaigns:read", iss: mock.url });
    expect(claims.exp - claims.iat).toBe(accessTokenLifetime);
    const basic = await authorized(await registered());
    const credentials = Buffer.from(`${basic.clientId}:secret`).toString("base64");
    expect((await exchange({ code: basic.code, code_verifier: basic.verifier }, { authorization: `Basic ${credentials}` })).status).toBe(200);
  });

  it("issues no refresh token to a client that did not register the refresh_token grant", async () => {
    const grant = await authorized(await registered(["authorization_code"]));
    const issued = await exchange({ code: grant.code, code_verifier: grant.verifier, client_id: grant.clientId });
    expect(issued.status).toBe(200);
    expect(issued.body).not.toHaveProperty("refresh_token");
    const refresh = await call("requestToken", { form: { grant_type: "refresh_token", refresh_token: "sandbox_rt_any", client_id: grant.clientId } });
    expect([refresh.status, refresh.body.error]).toEqual([400, "unauthorized_client"]);
  });

  it("lets a token call what its scopes allow, refuses the rest with insufficient_scope, and expires it on the sandbox clock", async () => {
    const own = await start();
    try {
      const post = (path: string) => `${own.baseUrls.platform}${path}`;
      const client = (await (await fetch(post("/register"), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: [redirectUri], grant_types: ["client_credentials"] }) })).json()) as { client_id: string };
      const form = new URLSearchParams({ grant_type: "client_credentials", client_id: client.client_id, scope: "posts:read" });
      const token = (await (await fetch(post("/token"), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form })).json()) as { access_token: string; expires_in: number };
      const read = () => fetch(post("/posts/p1/metrics-history"), { headers: { authorization: `Bearer ${token.access_token}` } });
      expect((await read()).status).toBe(200);
      const write = await fetch(post("/invoices"), { method: "POST", headers: { authorization: `Bearer ${token.access_token}` } });
      expect(write.status).toBe(403);
      expect(write.headers.get("www-authenticate")).toContain('scope="invoices:write"');
      await own.advance(token.expires_in - 1);
      expect((await read()).status).toBe(200);
      await own.advance(1);
      const expired = await read();
      expect(expired.status).toBe(401);
      expect(expired.headers.get("www-authenticate")).toContain('error="invalid_token"');
    } finally {
      await own.close();
    }
  });

  it.each([
    ["a wrong verifier", (grant: Grant) => ({ code: grant.code, client_id: grant.clientId, code_verifier: randomBytes(32).toString("base64url") }), /code_verifier/],
    ["an unknown code", (grant: Grant) => ({ code: "sandbox_code_unknown", client_id: grant.clientId, code_verifier: grant.verifier }), /unknown/],
    ["another redirect_uri", (grant: Grant) => ({ code: grant.code, client_id: grant.clientId, code_verifier: grant.verifier, redirect_uri: `${redirectUri}/other` }), /redirect_uri/],
  ])("answers 400 invalid_grant to %s", async (_case, fields, description) => {
    const refused = await exchange(fields(await authorized(await registered())));
    expect([refused.status, refused.body]).toEqual([400, { error: "invalid_grant", error_description: expect.stringMatching(description) }]);
  });

  it.each([
    ["a refresh without refresh_token", { grant_type: "refresh_token" }, "`refresh_token` is required"],
    ["a code exchange without code_verifier", { grant_type: "authorization_code", code: "sandbox_code_x", redirect_uri: redirectUri }, "`code_verifier` is required"],
    ["no grant_type", {}, "`grant_type` is required"],
  ])("answers 400 invalid_request naming what the grant sent lacks: %s", async (_case, form, description) => {
    const refused = await call("requestToken", { form: { ...form, client_id: await registered() } });
    expect([refused.status, refused.body]).toEqual([400, { error: "invalid_request", error_description: description }]);
  });

  it("answers 400 invalid_grant to a code used before, even by its own client and verifier, and to another registered client", async () => {
    const grant = await authorized(await registered());
    expect((await exchange({ code: grant.code, code_verifier: grant.verifier, client_id: grant.clientId })).status).toBe(200);
    const reused = await exchange({ code: grant.code, code_verifier: grant.verifier, client_id: grant.clientId });
    expect([reused.status, reused.body]).toEqual([400, { error: "invalid_grant", error_description: "The authorization code was already used." }]);
    const other = await authorized(await registered());
    const stolen = await exchange({ code: other.code, code_verifier: other.verifier, client_id: await registered() });
    expect([stolen.status, stolen.body.error]).toEqual([400, "invalid_grant"]);
  });

  it("refreshes with a rotated refresh token, answers 401 invalid_client to an unregistered client, and unsupported_grant_type to others", async () => {
    const grant = await authorized(await registered());
    const first = await exchange({ code: grant.code, code_verifier: grant.verifier, client_id: grant.clientId });
    const refreshed = await call("requestToken", { form: { grant_type: "refresh_token", refresh_token: first.body.refresh_token, client_id: grant.clientId } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.scope).toBe(first.body.scope);
    const again = await call("requestToken", { form: { grant_type: "refresh_token", refresh_token: first.body.refresh_token, client_id: grant.clientId } });
    expect([again.status, again.body.error]).toEqual([400, "invalid_grant"]);
    const stranger = await call("requestToken", { form: { grant_type: "client_credentials", client_id: "sandbox_client_nobody" } });
    expect([stranger.status, stranger.body.error]).toEqual([401, "invalid_client"]);
    expect((await call("requestToken", { form: { grant_type: "password" } })).body.error).toBe("unsupported_grant_type");
    // RFC 6749 §4.5: an extension grant is a URI; this server offers none.
    expect((await call("requestToken", { form: { grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", client_id: grant.clientId } })).body.error).toBe("unsupported_grant_type");
    const json = await call("requestToken", { body: { grant_type: "client_credentials" } });
    expect([json.status, json.body.error]).toEqual([400, "invalid_request"]);
  });

  it("revokes with an empty 200, after which the token no longer authenticates", async () => {
    const grant = await authorized(await registered());
    const issued = await exchange({ code: grant.code, code_verifier: grant.verifier, client_id: grant.clientId });
    const revoked = await call("revokeToken", { form: { token: issued.body.access_token } });
    expect([revoked.status, revoked.body]).toEqual([200, ""]);
    expect((await call("getPostMetricsHistory", { token: issued.body.access_token })).status).toBe(401);
  });

  it.each([
    ["an empty form body", { form: {} }],
    ["a form without token", { form: { foo: "bar" } }],
    ["an empty token, which RFC 6749 §3.2 counts as left out", { form: { token: "" } }],
    ["a JSON body, which carries no form parameters", { body: { token: "rt_1" } }],
    ["no body at all", {}],
  ])("refuses a revocation without a token (RFC 7009 §2.1) with 400 invalid_request: %s", async (_case, request) => {
    const answer = await call("revokeToken", request);
    expect([answer.status, answer.body.error, answer.body.error_description]).toEqual([400, "invalid_request", expect.stringContaining("token")]);
  });

  it("counts an empty form parameter as left out (RFC 6749 §3.2): a required one is missing, an optional one is not sent", async () => {
    const clientId = await registered(["client_credentials"]);
    const missing = await call("requestToken", { form: { grant_type: "refresh_token", refresh_token: "", client_id: clientId } });
    expect([missing.status, missing.body.error]).toEqual([400, "invalid_request"]);
    // No scope asked, none granted: the answer carries no `scope` (RFC 6749 §3.3: a scope is one or more tokens).
    const issued = await call("requestToken", { form: { grant_type: "client_credentials", client_id: clientId, scope: "" } });
    expect(issued.status).toBe(200);
    expect(issued.body).not.toHaveProperty("scope");
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
      expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token"(, scope="[a-z]+:(read|write)")?, resource_metadata="http:\/\/.+"$/);
    }
  });

  it("names the scope to request in the 401 challenge, where the sandbox knows the operation's scope", async () => {
    const answer = await call("getPostMetricsHistory", { token: platformTokens.expired });
    expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token", scope="posts:read", resource_metadata="http:\/\/.+"$/);
  });

  it("answers the magic tokens with 402 subscription_required and 403 insufficient_scope", async () => {
    const lapsed = await call("getPostMetricsHistory", { token: platformTokens.noSubscription });
    expect([lapsed.status, lapsed.body.error.code]).toEqual([402, "subscription_required"]);
    const scoped = await call("createInvoice", { token: platformTokens.insufficientScope, body: {} });
    expect([scoped.status, scoped.body.error.code, scoped.body.error.meta]).toEqual([403, "insufficient_scope", { scope: "invoices:write" }]);
    expect(scoped.headers.get("www-authenticate")).toMatch(/^Bearer error="insufficient_scope", scope="invoices:write", resource_metadata=/);
  });

  it("answers the magic tokens sandbox_forbidden (403, no challenge) and sandbox_rate_limited (429 at once, then refilled)", async () => {
    const forbidden = await call("executePayout", { token: platformTokens.forbidden, headers: { "idempotency-key": "forbidden-key" }, body: {} });
    expect([forbidden.status, forbidden.body.error.code, forbidden.headers.get("www-authenticate")]).toEqual([403, "forbidden", null]);
    const limited = await call("getPostMetricsHistory", { token: platformTokens.rateLimited });
    expect([limited.status, limited.body.error.code, limited.headers.get("retry-after")]).toEqual([429, "rate_limited", "1"]);
  });

  it("answers 404 not_found for the magic id notfound where the operation documents a 404", async () => {
    for (const id of ["getPostMetricsHistory", "listWebhookDeliveries", "sendInvoice", "testWebhook"] as const) {
      const path = operations[id].path.replace("{id}", "notfound");
      const answer = await call(id, { path, token: freshToken(), body: operations[id].method === "POST" ? {} : undefined });
      expect([answer.status, answer.body.error.code]).toEqual([404, "not_found"]);
    }
  });

  it("answers 404 not_found for an undocumented path", async () => {
    const response = await fetch(`${mock.baseUrls.platform}/nowhere`, { headers: { authorization: "Bearer t" } });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });

  it("pages a webhook's deliveries with limit, nextCursor and hasMore, to the end of a seeded collection", async () => {
    const token = freshToken();
    const seen: unknown[] = [];
    let query = "?limit=7";
    for (let page = 0; page < 100; page++) {
      const answer = await call("listWebhookDeliveries", { path: "/webhooks/wh_paged/deliveries", token, query });
      expect(answer.status).toBe(200);
      expect(answer.body.data.length).toBeLessThanOrEqual(7);
      seen.push(...answer.body.data);
      if (!answer.body.hasMore) {
        expect(answer.body.nextCursor).toBeNull();
        break;
      }
      expect(answer.body.data).toHaveLength(7);
      query = `?limit=7&cursor=${encodeURIComponent(answer.body.nextCursor)}`;
    }
    const whole = await call("listWebhookDeliveries", { path: "/webhooks/wh_paged/deliveries", token, query: "?limit=100" });
    expect(seen).toHaveLength(whole.body.data.length);
    expect(seen.length).toBeGreaterThan(7);
    const first = await call("listWebhookDeliveries", { path: "/webhooks/wh_paged/deliveries", token });
    expect(first.body.data.length).toBe(Math.min(25, seen.length));
    const empty = await call("listWebhookDeliveries", { path: "/webhooks/empty/deliveries", token });
    expect(empty.body).toEqual({ data: [], nextCursor: null, hasMore: false });
    const forged = await call("listWebhookDeliveries", { path: "/webhooks/wh_paged/deliveries", token, query: "?cursor=made-up" });
    expect([forged.status, forged.body.error.code]).toEqual([400, "invalid_request"]);
  });

  it("checks list and history limits", async () => {
    const tooMany = await call("listWebhookDeliveries", { token: freshToken(), query: "?limit=101" });
    expect([tooMany.status, tooMany.body.error.code]).toEqual([400, "invalid_request"]);
    expect((await call("getPostMetricsHistory", { token: freshToken(), query: "?limit=500" })).status).toBe(200);
    expect((await call("getPostMetricsHistory", { token: freshToken(), query: "?limit=501" })).status).toBe(400);
  });
});

describe("write bodies", () => {
  const writes = resources.filter((id) => operations[id].method === "POST");

  it.each(writes)("%s refuses truncated JSON, arrays, strings and NUL bytes with 400 invalid_request", async (id) => {
    for (const raw of ['{"amount": 1', "[1, 2]", '"a string"', '{"note": "a\u0000b"}']) {
      const response = await fetch(`${mock.baseUrls.platform}${operations[id].path.replace("{id}", "id_1")}`, {
        method: "POST",
        headers: { authorization: `Bearer ${freshToken()}`, "content-type": "application/json", ...keyFor(id) },
        body: raw,
      });
      const body = (await response.json()) as { error: { code: string; meta: { reason: string } } };
      expect([response.status, body.error.code], raw).toEqual([400, "invalid_request"]);
      expect(validateResponse(id, 400, body, { contentType: "application/json" })).toEqual({ valid: true });
    }
  });
});

describe("idempotency", () => {
  const writes = resources.filter((id) => keyed(id));

  it.each(writes)("%s refuses an empty Idempotency-Key with 400 invalid_request, whether the key is required or not", async (id) => {
    const token = freshToken();
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await call(id, { token, headers: { "idempotency-key": "" }, body: { attempt } });
      expect([answer.status, answer.body.error.code, answer.body.error.message]).toEqual([400, "invalid_request", expect.stringContaining("empty")]);
    }
  });

  it("forgets a key once the description's retention has passed on the sandbox clock", async () => {
    const own = await start();
    try {
      const send = (amount: number) =>
        fetch(`${own.baseUrls.platform}/payouts/execute`, {
          method: "POST",
          headers: { authorization: "Bearer retention", "content-type": "application/json", "idempotency-key": "retention-key" },
          body: JSON.stringify({ amount }),
        });
      expect((await send(1)).status).toBe(200);
      await own.advance(idempotencyRetentionMs / 1000 - 1);
      expect((await send(2)).status).toBe(409);
      await own.advance(1);
      expect((await send(2)).status).toBe(200);
    } finally {
      await own.close();
    }
  });

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
