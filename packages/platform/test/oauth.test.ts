import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatformClient, OAuthProtocolError, OAuthValidationError, PlatformInputError, PlatformRedirectError } from "../src/index.js";
import {
  authorizationUrl,
  clientCredentials,
  discover,
  exchangeCode,
  OAuthServer,
  pkceMethods,
  type RegisteredClient,
  refresh,
  refreshingAccessToken,
  registerClient,
  revoke,
  sensitiveScopes,
  TokenSet,
} from "../src/oauth.js";
import { startAuthorizationServer } from "./authorization-server.js";
import { startServer } from "./server.js";

const redirectUri = "https://app.acme.example/oauth/callback";
let as: Awaited<ReturnType<typeof startAuthorizationServer>>;
let server: OAuthServer;
let client: RegisteredClient;
const lines: string[] = [];
const log = (message: string, details?: unknown) => void lines.push(message, JSON.stringify(details));
const logger = { debug: log, info: log, warn: log, error: log };

beforeAll(async () => {
  as = await startAuthorizationServer();
  server = await discover(as.origin, { allowInsecureRequests: true, logger });
  client = await registerClient({
    server,
    metadata: { redirect_uris: [redirectUri], grant_types: ["authorization_code", "refresh_token", "client_credentials"], token_endpoint_auth_method: "client_secret_basic" },
  });
});
afterAll(() => as.close());

async function rejection(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!outcome) throw new Error("expected a rejection");
  return outcome as Error;
}

/** Authorization request → the user agent's redirect → the callback URL. */
async function authorize(scope = "campaigns:read offline_access") {
  const request = await authorizationUrl({ server, clientId: client.clientId, redirectUri, scope });
  return { request, callbackUrl: await as.authorize(request.url) };
}

describe("discovery", () => {
  it("reads the metadata at {host}/.well-known/oauth-authorization-server and checks the issuer", () => {
    expect(server.issuer).toBe(as.origin);
    expect(server.metadata.token_endpoint).toBe(`${as.origin}/api/oauth/v1/token`);
    expect(as.requests[0]).toMatchObject({ method: "GET", path: "/.well-known/oauth-authorization-server" });
  });

  it("refuses http: unless allowInsecureRequests is passed, explicitly", async () => {
    const error = await rejection(discover(as.origin));
    expect(error).toBeInstanceOf(PlatformInputError);
    expect(error).toMatchObject({ field: "allowInsecureRequests" });
    expect(error.message).toContain("only to test against a local server");
  });

  it("wants the host alone, not the API base", async () => {
    const error = await rejection(discover(`${as.origin}/api/oauth/v1`, { allowInsecureRequests: true }));
    expect(error).toMatchObject({ field: "host" });
  });

  it("refuses a discovery document that redirects to another origin, before reading anything there", async () => {
    const [host, other] = await Promise.all([startServer(""), startServer("")]);
    try {
      host.script((_request, response) => void response.writeHead(302, { location: `${other.origin}/.well-known/oauth-authorization-server` }).end());
      const error = await rejection(discover(host.origin, { allowInsecureRequests: true }));
      expect(error).toBeInstanceOf(PlatformRedirectError);
      expect(error).toMatchObject({ operation: "discover", refusal: { fromOrigin: host.origin, toOrigin: other.origin, reason: "cross-origin" } });
      expect(other.requests).toHaveLength(0);
    } finally {
      await Promise.all([host.close(), other.close()]);
    }
  });

  it("refuses metadata whose issuer is another host", async () => {
    const other = await startAuthorizationServer();
    const error = await rejection(discover(other.origin.replace("127.0.0.1", "localhost"), { allowInsecureRequests: true }));
    await other.close();
    expect(error).toBeInstanceOf(OAuthValidationError);
    expect((error as OAuthValidationError).code).toBe("OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED");
  });
});

describe("registration", () => {
  it("registers through Dynamic Client Registration and keeps the secret out of sight", () => {
    expect(client.clientId).toMatch(/^client_/);
    expect(client.clientSecret).toMatch(/^secret_/);
    expect(client.metadata).toMatchObject({ redirect_uris: [redirectUri], client_id: client.clientId });
    expect(client.metadata).not.toHaveProperty("client_secret");
    const secret = client.clientSecret as string;
    expect(JSON.stringify(client)).not.toContain(secret);
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(secret);
  });
});

describe("the authorization code flow with PKCE", () => {
  it("builds the authorization URL with S256, a state and a verifier", async () => {
    const request = await authorizationUrl({ server, clientId: client.clientId, redirectUri, scope: "campaigns:read", state: "af0ifjsldkj" });
    const url = new URL(request.url);
    expect(url.origin + url.pathname).toBe(`${as.origin}/api/oauth/v1/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: "code",
      client_id: client.clientId,
      redirect_uri: redirectUri,
      scope: "campaigns:read",
      state: "af0ifjsldkj",
      code_challenge_method: "S256",
    });
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(request.state).toBe("af0ifjsldkj");
    expect(request.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(url.href).not.toContain(request.codeVerifier);
    const { codeVerifier, ...visible } = JSON.parse(JSON.stringify(request)) as Record<string, unknown>;
    expect(codeVerifier).toBeUndefined();
    expect(visible).toEqual({ url: request.url, state: "af0ifjsldkj" });
    expect(inspect(request, { showHidden: true })).not.toContain(request.codeVerifier);
  });

  it("generates a fresh state and verifier for each request", async () => {
    const a = await authorizationUrl({ server, clientId: "c", redirectUri, scope: "x:read" });
    const b = await authorizationUrl({ server, clientId: "c", redirectUri, scope: "x:read" });
    expect(a.state).not.toBe(b.state);
    expect(a.codeVerifier).not.toBe(b.codeVerifier);
  });

  it("refuses any method but S256 (x-pkce)", async () => {
    expect(pkceMethods).toEqual(["S256"]);
    const error = await rejection(authorizationUrl({ server, clientId: "c", redirectUri, scope: "x:read", codeChallengeMethod: "plain" }));
    expect(error).toBeInstanceOf(PlatformInputError);
    expect(error.message).toContain("PKCE with S256 is required");
  });

  it("end to end: authorize, exchange the code (state and iss checked, verifier sent), call the API, refresh, revoke", async () => {
    const { request, callbackUrl } = await authorize();
    const callback = new URL(callbackUrl);
    expect(callback.searchParams.get("iss")).toBe(as.origin);
    const tokens = await exchangeCode({
      server,
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      redirectUri,
      callbackUrl,
      expectedState: request.state,
      codeVerifier: request.codeVerifier,
    });
    expect(tokens).toBeInstanceOf(TokenSet);
    expect(tokens.accessToken).toMatch(/^at_/);
    expect(tokens.refreshToken).toMatch(/^rt_/);
    expect(tokens).toMatchObject({ tokenType: "bearer", expiresIn: 3600, scope: "campaigns:read offline_access" });
    const exchange = as.requests.at(-1);
    expect(exchange?.headers.authorization).toMatch(/^Basic /);
    expect(new URLSearchParams(exchange?.body).get("code_verifier")).toBe(request.codeVerifier);

    // The access token on the OAuth API, through getAccessToken.
    const calls: string[] = [];
    const api = createPlatformClient({
      baseUrl: `${as.origin}/api/oauth/v1`,
      getAccessToken: async () => {
        calls.push("token");
        return tokens.accessToken;
      },
      fetch: async (_url, init) => {
        expect(new Headers(init?.headers).get("authorization")).toBe(`Bearer ${tokens.accessToken}`);
        return new Response(JSON.stringify({}), { status: 200, headers: { "content-type": "application/json" } });
      },
    });
    await api.getPostMetricsHistory("p1");
    expect(calls).toHaveLength(1);

    const next = await refresh({ server, clientId: client.clientId, clientSecret: client.clientSecret, refreshToken: tokens.refreshToken as string });
    expect(next.accessToken).not.toBe(tokens.accessToken);
    expect(next.refreshToken).not.toBe(tokens.refreshToken);
    // The old refresh token was rotated out.
    const stale = await rejection(refresh({ server, clientId: client.clientId, clientSecret: client.clientSecret, refreshToken: tokens.refreshToken as string }));
    expect(stale).toBeInstanceOf(OAuthProtocolError);
    expect(stale).toMatchObject({ error: "invalid_grant", status: 400 });

    await revoke({ server, clientId: client.clientId, clientSecret: client.clientSecret, token: next.refreshToken as string, tokenTypeHint: "refresh_token" });
    expect(as.revoked).toContain(next.refreshToken);
    expect(new URLSearchParams(as.requests.at(-1)?.body).get("token_type_hint")).toBe("refresh_token");
  });

  it("a wrong iss makes exchangeCode throw, before any token request", async () => {
    as.settings.iss = "https://evil.example";
    const { request, callbackUrl } = await authorize();
    as.settings.iss = undefined;
    const before = as.requests.length;
    const error = await rejection(
      exchangeCode({ server, clientId: client.clientId, clientSecret: client.clientSecret, redirectUri, callbackUrl, expectedState: request.state, codeVerifier: request.codeVerifier }),
    );
    expect(error).toBeInstanceOf(OAuthValidationError);
    expect(error.message).toContain('"iss"');
    expect(as.requests.length).toBe(before);
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(new URL(callbackUrl).searchParams.get("code"));
  });

  it("a missing iss is refused too, since the server's metadata says it sends one (RFC 9207)", async () => {
    const { request, callbackUrl } = await authorize();
    const url = new URL(callbackUrl);
    url.searchParams.delete("iss");
    const error = await rejection(
      exchangeCode({ server, clientId: client.clientId, clientSecret: client.clientSecret, redirectUri, callbackUrl: url, expectedState: request.state, codeVerifier: request.codeVerifier }),
    );
    expect(error).toBeInstanceOf(OAuthValidationError);
  });

  it("a wrong state makes exchangeCode throw", async () => {
    const { request, callbackUrl } = await authorize();
    const error = await rejection(
      exchangeCode({ server, clientId: client.clientId, clientSecret: client.clientSecret, redirectUri, callbackUrl, expectedState: `${request.state}x`, codeVerifier: request.codeVerifier }),
    );
    expect(error).toBeInstanceOf(OAuthValidationError);
    expect(error.message).toContain('"state"');
  });

  it("a wrong code verifier is the server's invalid_grant, as an OAuthProtocolError", async () => {
    const { request, callbackUrl } = await authorize();
    const error = await rejection(
      exchangeCode({ server, clientId: client.clientId, clientSecret: client.clientSecret, redirectUri, callbackUrl, expectedState: request.state, codeVerifier: "x".repeat(43) }),
    );
    expect(error).toBeInstanceOf(OAuthProtocolError);
    expect(error).toMatchObject({ error: "invalid_grant", errorDescription: "The code, redirect_uri or code_verifier does not match", status: 400 });
  });

  it("an error redirect (error, error_description, state, iss) is an OAuthProtocolError", async () => {
    const request = await authorizationUrl({ server, clientId: client.clientId, redirectUri, scope: "x:read" });
    const callback = new URL(redirectUri);
    for (const [name, value] of Object.entries({ error: "access_denied", error_description: "The user said no", state: request.state, iss: as.origin })) {
      callback.searchParams.set(name, value);
    }
    const error = await rejection(
      exchangeCode({ server, clientId: client.clientId, clientSecret: client.clientSecret, redirectUri, callbackUrl: callback, expectedState: request.state, codeVerifier: request.codeVerifier }),
    );
    expect(error).toBeInstanceOf(OAuthProtocolError);
    expect(error).toMatchObject({ error: "access_denied", errorDescription: "The user said no", status: undefined });
  });
});

describe("client credentials, errors and retries", () => {
  it("issues a machine-to-machine token", async () => {
    const tokens = await clientCredentials({ server, clientId: client.clientId, clientSecret: client.clientSecret, scope: "campaigns:read" });
    expect(tokens.accessToken).toMatch(/^at_/);
    expect(tokens.refreshToken).toBeUndefined();
    expect(new URLSearchParams(as.requests.at(-1)?.body).get("grant_type")).toBe("client_credentials");
  });

  it("client_secret_post sends the secret in the body", async () => {
    await clientCredentials({ server, clientId: client.clientId, clientSecret: client.clientSecret, tokenEndpointAuthMethod: "client_secret_post" });
    const form = new URLSearchParams(as.requests.at(-1)?.body);
    expect(form.get("client_secret")).toBe(client.clientSecret);
    expect(as.requests.at(-1)?.headers.authorization).toBeUndefined();
  });

  it("a bad secret is the server's invalid_client", async () => {
    const error = await rejection(clientCredentials({ server, clientId: client.clientId, clientSecret: "wrong" }));
    expect(error).toBeInstanceOf(OAuthProtocolError);
    expect(error).toMatchObject({ error: "invalid_client", status: 401 });
  });

  it("temporarily_unavailable (429) is retried after exactly Retry-After", async () => {
    as.settings.tokenFailures.push({ status: 429, body: { error: "temporarily_unavailable", error_description: "slow down" }, headers: { "retry-after": "0" } });
    const tokens = await clientCredentials({ server, clientId: client.clientId, clientSecret: client.clientSecret });
    expect(tokens.accessToken).toMatch(/^at_/);
    expect(lines.join("\n")).toContain("oauth: clientCredentials answered 429; retry 1 of 4");
  });

  it("temporarily_unavailable without Retry-After is an OAuthProtocolError", async () => {
    as.settings.tokenFailures.push({ status: 429, body: { error: "temporarily_unavailable", error_description: "slow down" } });
    const error = await rejection(clientCredentials({ server, clientId: client.clientId, clientSecret: client.clientSecret }));
    expect(error).toMatchObject({ name: "OAuthProtocolError", error: "temporarily_unavailable", status: 429 });
  });
});

describe("refreshingAccessToken", () => {
  it("hands out the current token and refreshes it ahead of expiry, once for concurrent callers", async () => {
    const { request, callbackUrl } = await authorize();
    const tokens = await exchangeCode({ server, clientId: client.clientId, clientSecret: client.clientSecret, redirectUri, callbackUrl, expectedState: request.state, codeVerifier: request.codeVerifier });
    const seen: TokenSet[] = [];
    const fresh = refreshingAccessToken({ server, clientId: client.clientId, clientSecret: client.clientSecret, tokens, onRefresh: (next) => void seen.push(next) });
    expect(await fresh()).toBe(tokens.accessToken);
    const ahead = refreshingAccessToken({ server, clientId: client.clientId, clientSecret: client.clientSecret, tokens, refreshAheadMs: 3_600_000, onRefresh: (next) => void seen.push(next) });
    const [a, b] = await Promise.all([ahead(), ahead()]);
    expect(a).toBe(b);
    expect(a).not.toBe(tokens.accessToken);
    expect(seen).toHaveLength(1);
  });
});

describe("secrets never leak", () => {
  it("tokens, the client secret and the code verifier are absent from JSON, inspect, errors and logs", async () => {
    const { request, callbackUrl } = await authorize();
    const tokens = await exchangeCode({ server, clientId: client.clientId, clientSecret: client.clientSecret, redirectUri, callbackUrl, expectedState: request.state, codeVerifier: request.codeVerifier });
    const error = await rejection(refresh({ server, clientId: client.clientId, clientSecret: client.clientSecret, refreshToken: "rt_unknown" }));
    const secrets = [tokens.accessToken, tokens.refreshToken as string, client.clientSecret as string, request.codeVerifier];
    const texts = [
      JSON.stringify(tokens),
      inspect(tokens, { depth: 10, showHidden: true }),
      JSON.stringify(request),
      inspect(request, { depth: 10, showHidden: true }),
      JSON.stringify(server),
      inspect(server, { depth: 10, showHidden: true }),
      inspect(error, { depth: 10, showHidden: true }),
      JSON.stringify(error),
      lines.join("\n"),
    ];
    for (const secret of secrets) for (const text of texts) expect(text).not.toContain(secret);
    expect(JSON.parse(JSON.stringify(tokens))).toMatchObject({ tokenType: "bearer", expiresIn: 3600, hasRefreshToken: true });
    expect(lines.length).toBeGreaterThan(0);
  });

  it("exports the sensitive scopes from the description", () => {
    expect(sensitiveScopes).toEqual(["payouts:write", "invoices:write", "messages:write"]);
  });

  it("OAuthServer.fromMetadata refuses an http issuer unless allowed", () => {
    expect(() => OAuthServer.fromMetadata(server.metadata)).toThrow(PlatformInputError);
    expect(OAuthServer.fromMetadata(server.metadata, { allowInsecureRequests: true }).issuer).toBe(as.origin);
  });
});
