// The platform clients of @content-scraper/platform against the sandbox: every documented operation of the OAuth API
// (the OAuth flow through the helpers of @content-scraper/platform/oauth, other protocol endpoints through `request`,
// resource operations through their methods) and of the key-based API, with the negative cases as typed errors. Every
// answer with a documented body is checked against the description.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import {
  createLegacyClient,
  createPlatformClient,
  LegacyApiError,
  LegacySubscriptionRequiredError,
  OAuthProtocolError,
  PlatformApiError,
  SubscriptionRequiredError,
} from "@content-scraper/platform";
import { authorizationUrl, discover, exchangeCode, refresh, refreshingAccessToken, registerClient, revoke } from "@content-scraper/platform/oauth";
import { legacyKeys, platformTokens, type RunningMock } from "@content-scraper/mock";
import { validateResponse as validateLegacy } from "@content-scraper/validators/platform-legacy";
import { validateResponse as validatePlatform } from "@content-scraper/validators/platform";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "./support.js";

type Servers = { servers?: Array<{ url: string }> };
type Spec = Servers & { paths: Record<string, Record<string, Servers & { operationId?: string }>> };
const load = (name: string) => JSON.parse(readFileSync(createRequire(import.meta.url).resolve(`@content-scraper/spec/${name}.json`), "utf8")) as Spec;
const platformSpec = load("platform");
const legacySpec = load("platform-legacy");

/** The path of a server URL, its variables filled in (`https://{host}/api/oauth/v1` → `/api/oauth/v1`). */
const serverPath = (url: string) => new URL(url.replace(/\{[^}]*\}/g, "host")).pathname.replace(/\/$/, "");

/**
 * Every documented operation of a description: its id, method, and where it is served: the path template below its own
 * server's path (the operation's, the path item's, else the description's `servers`).
 */
function operationsOf(spec: Spec) {
  return Object.entries(spec.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, operation]) => typeof operation === "object" && "operationId" in operation)
      .map(([method, operation]) => {
        const server = (operation.servers ?? (item as Servers).servers ?? spec.servers)?.[0]?.url ?? "/";
        return { id: operation.operationId as string, method: method.toUpperCase(), path: serverPath(server) + path };
      }),
  );
}
const platformOperations = operationsOf(platformSpec);
const legacyOperations = operationsOf(legacySpec);

const problems: string[] = [];
const seen = new Set<string>();
afterEach(() => {
  expect(problems.splice(0)).toEqual([]);
});

/** `fetch`, checking every answer that has a documented body against its operation's documented response. */
function checkingFetch(operations: typeof platformOperations, validate: typeof validatePlatform | typeof validateLegacy): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request, { redirect: "manual" });
    const path = new URL(request.url).pathname;
    const operation = operations.find(
      (candidate) => candidate.method === request.method && new RegExp(`^${candidate.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path),
    );
    const contentType = response.headers.get("content-type") ?? "";
    const text = await response.clone().text();
    if (operation) seen.add(operation.id);
    if (operation && text !== "" && contentType.includes("json")) {
      const result = (validate as typeof validatePlatform)(operation.id as never, response.status, JSON.parse(text), { contentType });
      if (!result.valid) problems.push(`${operation.id} ${response.status}: ${result.errors.map((error) => error.message).join("; ")}`);
    }
    return response;
  };
}

let mock: RunningMock;
beforeAll(async () => {
  mock = await startSandbox();
});
afterAll(() => mock.close());

let tokens = 0;
const platformFor = (accessToken = `contract_token_${++tokens}`, maxRetries = 0) =>
  createPlatformClient({ baseUrl: mock.baseUrls.platform, accessToken, retry: { maxRetries }, fetch: checkingFetch(platformOperations, validatePlatform) });
const legacyFor = (apiKey = `company_contract_${++tokens}`) =>
  createLegacyClient({ baseUrl: mock.baseUrls.platformLegacy, apiKey, retry: { maxRetries: 0 }, fetch: checkingFetch(legacyOperations, validateLegacy) });

async function rejection<T>(call: Promise<unknown>, type: abstract new (...args: never[]) => T): Promise<T> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(type);
  return error as T;
}

describe("the OAuth platform API", () => {
  it("answers the protocol endpoints without a token, the discovery document at the host's root", async () => {
    const client = platformFor();
    const registered = await client.request("POST", "/register", { body: { redirect_uris: ["https://app.example/cb"] } });
    expect([registered.meta.status, registered.data]).toEqual([201, { client_id: expect.any(String), redirect_uris: ["https://app.example/cb"] }]);
    expect((await client.request("GET", "/.well-known/oauth-authorization-server")).data).toMatchObject({ issuer: mock.url });
    const authorize = await fetch(
      `${mock.baseUrls.platform}/authorize?response_type=code&client_id=${(registered.data as { client_id: string }).client_id}&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=s&code_challenge=x&code_challenge_method=S256`,
      { redirect: "manual" },
    );
    expect(authorize.status).toBe(302);
    expect(new URL(authorize.headers.get("location") as string).searchParams.get("state")).toBe("s");
  });

  it("answers every resource operation through the client's methods", async () => {
    const client = platformFor();
    expect((await client.testWebhook("wh_1", {})).meta.status).toBe(200);
    // The sandbox's seeded collection: at most 100 items, so one page of 100 holds them all, and a walk (25 a page) too.
    const page = await client.listWebhookDeliveries("wh_1", { limit: 100 });
    expect(page.data).toMatchObject({ hasMore: false, nextCursor: null });
    const items = [];
    for await (const delivery of client.webhookDeliveries("wh_1")) items.push(delivery);
    expect(items).toHaveLength((page.data as { data: unknown[] }).data.length);
    expect((await client.getPostMetricsHistory("post_1", { days: 30, limit: 500 })).meta.status).toBe(200);
    for (const write of [
      () => client.executePayout({}),
      () => client.executeQuickPay({}),
      () => client.createInvoice({}),
      () => client.sendInvoice("inv_1", {}),
      () => client.voidInvoice("inv_1", {}),
      () => client.createCampaignAnalyticsHistory("cmp_1", {}, { idempotencyKey: "analytics-contract-1" }),
    ]) {
      const { meta } = await write();
      expect(meta.status).toBe(200);
      expect(meta.idempotencyKey).toBeTruthy();
    }
  });

  describe("the OAuth flow through the helpers", () => {
    const redirectUri = "https://app.example/oauth/callback";
    const scope = "posts:read offline_access";

    /** Discovery, registration for the refresh_token grant, and the authorization (the sandbox consents at once). */
    async function authorized() {
      const server = await discover(mock.url, { allowInsecureRequests: true, fetch: checkingFetch(platformOperations, validatePlatform) });
      const metadata = { client_name: "Contract tests", redirect_uris: [redirectUri], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] };
      const client = await registerClient({ server, metadata });
      const request = await authorizationUrl({ server, clientId: client.clientId, redirectUri, scope });
      const redirect = await fetch(request.url, { redirect: "manual" });
      expect(redirect.status).toBe(302);
      return { server, client, request, callbackUrl: redirect.headers.get("location") as string };
    }

    it("discover, register, authorize, exchange the code, call a resource, refresh and revoke", async () => {
      const { server, client, request, callbackUrl } = await authorized();
      expect(server.issuer).toBe(mock.url);
      expect(client.metadata).toMatchObject({ redirect_uris: [redirectUri], grant_types: ["authorization_code", "refresh_token"] });
      const credentials = { server, clientId: client.clientId };
      const tokens = await exchangeCode({ ...credentials, callbackUrl, expectedState: request.state, codeVerifier: request.codeVerifier, redirectUri });
      expect(tokens).toMatchObject({ tokenType: "bearer", expiresIn: 3600 });
      const platform = createPlatformClient({
        baseUrl: mock.baseUrls.platform,
        getAccessToken: refreshingAccessToken({ ...credentials, tokens }),
        fetch: checkingFetch(platformOperations, validatePlatform),
      });
      expect((await platform.getPostMetricsHistory("post_1")).meta.status).toBe(200);
      const refreshed = await refresh({ ...credentials, refreshToken: tokens.refreshToken as string });
      expect(refreshed.accessToken).toEqual(expect.any(String));
      await expect(revoke({ ...credentials, token: refreshed.refreshToken as string, tokenTypeHint: "refresh_token" })).resolves.toBeUndefined();
    });

    it("refuses another code verifier with OAuthProtocolError invalid_grant", async () => {
      const { server, client, request, callbackUrl } = await authorized();
      const other = await authorizationUrl({ server, clientId: client.clientId, redirectUri, scope });
      const exchange = exchangeCode({ server, clientId: client.clientId, callbackUrl, expectedState: request.state, codeVerifier: other.codeVerifier, redirectUri });
      expect(await rejection(exchange, OAuthProtocolError)).toMatchObject({ error: "invalid_grant", status: 400 });
    });
  });

  it("has called every documented operation through the client (authorize is a browser redirect, fetched above)", () => {
    const ids = platformOperations.map((operation) => operation.id).filter((id) => id !== "authorizeClient");
    expect([...seen].filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
  });

  it("replays a write with the same key and body, and answers 409 idempotency_conflict to a different body", async () => {
    const client = platformFor();
    const first = await client.executePayout({ amount: 1 }, { idempotencyKey: "payout-contract-1" });
    const replay = await client.executePayout({ amount: 1 }, { idempotencyKey: "payout-contract-1" });
    expect(replay.data).toEqual(first.data);
    expect(replay.meta.headers.get("idempotent-replayed")).toBe("true");
    const conflict = await rejection(client.executePayout({ amount: 2 }, { idempotencyKey: "payout-contract-1" }), PlatformApiError);
    expect(conflict).toMatchObject({ status: 409, code: "idempotency_conflict" });
  });

  it("answers a missing token with 401 unauthorized and its challenge", async () => {
    const error = await rejection(platformFor("sandbox_expired").getPostMetricsHistory("post_1"), PlatformApiError);
    expect(error).toMatchObject({ status: 401, code: "unauthorized" });
    expect(error.challenge?.resourceMetadata).toMatch(/^http:\/\//);
  });

  it("answers the magic tokens with 402 SubscriptionRequiredError and 403 insufficient_scope", async () => {
    await rejection(platformFor(platformTokens.noSubscription).executeQuickPay({}), SubscriptionRequiredError);
    const scope = await rejection(platformFor(platformTokens.insufficientScope).createInvoice({}), PlatformApiError);
    expect(scope).toMatchObject({ status: 403, code: "insufficient_scope" });
    expect(scope.challenge?.scope).toBe("invoices:write");
  });

  it("rate-limits a token at 600 a minute with Retry-After", async () => {
    const client = platformFor();
    const attempt = () => client.getPostMetricsHistory("post_1").then(() => undefined, (reason: PlatformApiError) => reason);
    const started = Date.now();
    // A minute of allowance at once: all of it answers.
    expect((await Promise.all(Array.from({ length: 600 }, attempt))).filter(Boolean)).toEqual([]);
    // The bucket refills continuously (10 a second) while the burst runs, however slow the machine: allow for that.
    let error = await attempt();
    let extra = 0;
    for (; !error && extra < 1000; extra++) error = await attempt();
    expect(extra).toBeLessThanOrEqual(1 + ((Date.now() - started) / 60_000) * 600);
    expect(error).toMatchObject({ status: 429, code: "rate_limited" });
    expect(error?.retryAfterMs).toBeGreaterThanOrEqual(1000);
    // Some 600 requests through Prism: well within a minute, but more than vitest's default 5 s on a loaded machine.
  }, 30_000);
});

describe("the key-based platform API", () => {
  it("answers every documented operation with the rate-limit state", async () => {
    for (const operation of legacyOperations) expect(operation.id).toBe("getPostMetricsHistory");
    const { data, meta } = await legacyFor().getPostMetricsHistory("post_1", { days: 30, limit: 100 });
    expect(data).toBeTypeOf("object");
    expect(meta.rateLimit).toMatchObject({ limit: 100, remaining: 99 });
    expect(seen.has("getPostMetricsHistory")).toBe(true);
  });

  it("answers the documented errors as typed errors", async () => {
    await rejection(legacyFor(legacyKeys.noSubscription).getPostMetricsHistory("post_1"), LegacySubscriptionRequiredError);
    expect(await rejection(legacyFor(legacyKeys.restricted).getPostMetricsHistory("post_1"), LegacyApiError)).toMatchObject({ status: 403 });
    expect(await rejection(legacyFor().getPostMetricsHistory("post_1", { limit: 501 }), Error)).toBeTruthy();
    expect(await rejection(legacyFor().request("GET", "/leads"), LegacyApiError)).toMatchObject({ status: 404 });
  });

  it("rate-limits a key at 100 a minute with Retry-After", async () => {
    const client = legacyFor();
    let error: LegacyApiError | undefined;
    for (let index = 0; index < 150 && !error; index++) {
      error = await client.getPostMetricsHistory("post_1").then(
        () => undefined,
        (reason: LegacyApiError) => reason,
      );
    }
    expect(error).toMatchObject({ status: 429 });
    expect(error?.rateLimit.remaining).toBe(0);
    expect(error?.retryAfterMs).toBeGreaterThanOrEqual(1000);
  });
});
