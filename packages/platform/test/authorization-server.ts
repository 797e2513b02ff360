import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small OAuth 2.1 authorization server on loopback, port 0, for the helpers' tests: discovery, registration, an
 * authorize endpoint that issues a code for a PKCE S256 challenge and redirects with `code`, `state` and `iss`, a token
 * endpoint (authorization_code with the verifier check, refresh_token with rotation, client_credentials), revocation.
 */
export async function startAuthorizationServer() {
  const clients = new Map<string, { secret: string; redirectUris: string[] }>();
  const codes = new Map<string, { clientId: string; challenge: string; method: string; redirectUri: string; scope: string }>();
  const refreshTokens = new Map<string, string>();
  const revoked: string[] = [];
  const requests: Array<{ method: string; path: string; headers: IncomingMessage["headers"]; body: string }> = [];
  const settings = { iss: undefined as string | undefined, tokenFailures: [] as Array<{ status: number; body: unknown; headers?: Record<string, string> }> };
  const random = () => randomBytes(24).toString("base64url");
  let origin = "";

  const send = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers }).end(JSON.stringify(body));
  const oauthError = (response: ServerResponse, status: number, error: string, description: string) => send(response, status, { error, error_description: description });
  const tokens = (clientId: string, scope: string, withRefresh: boolean) => {
    const body: Record<string, unknown> = { access_token: `at_${random()}`, token_type: "Bearer", expires_in: 3600, scope };
    if (withRefresh) {
      const refreshToken = `rt_${random()}`;
      refreshTokens.set(refreshToken, clientId);
      body.refresh_token = refreshToken;
    }
    return body;
  };
  /** Client authentication: HTTP Basic, client_secret_post, or none for a public client. */
  const authenticate = (incoming: IncomingMessage, form: URLSearchParams): string | undefined => {
    const basic = /^Basic (.+)$/.exec(incoming.headers.authorization ?? "");
    if (basic) {
      const [id, secret] = Buffer.from(basic[1] as string, "base64").toString().split(":").map(decodeURIComponent);
      return clients.get(id as string)?.secret === secret ? id : undefined;
    }
    const id = form.get("client_id") ?? "";
    const client = clients.get(id);
    if (!client) return undefined;
    return client.secret === "" || client.secret === form.get("client_secret") ? id : undefined;
  };

  const server = createServer(async (incoming, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const url = new URL(incoming.url ?? "/", origin);
    requests.push({ method: incoming.method ?? "", path: url.pathname, headers: incoming.headers, body });
    const form = new URLSearchParams(body);

    switch (`${incoming.method} ${url.pathname}`) {
      case "GET /.well-known/oauth-authorization-server":
        return send(response, 200, {
          issuer: origin,
          authorization_endpoint: `${origin}/api/oauth/v1/authorize`,
          token_endpoint: `${origin}/api/oauth/v1/token`,
          registration_endpoint: `${origin}/api/oauth/v1/register`,
          revocation_endpoint: `${origin}/api/oauth/v1/revoke`,
          response_types_supported: ["code"],
          grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
          code_challenge_methods_supported: ["S256"],
          authorization_response_iss_parameter_supported: true,
        });
      case "POST /api/oauth/v1/register": {
        const metadata = JSON.parse(body) as { redirect_uris?: string[]; token_endpoint_auth_method?: string };
        const clientId = `client_${random()}`;
        const secret = metadata.token_endpoint_auth_method === "none" ? "" : `secret_${random()}`;
        clients.set(clientId, { secret, redirectUris: metadata.redirect_uris ?? [] });
        return send(response, 201, { ...metadata, client_id: clientId, ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}) });
      }
      case "GET /api/oauth/v1/authorize": {
        const q = url.searchParams;
        const client = clients.get(q.get("client_id") ?? "");
        const redirectUri = q.get("redirect_uri") ?? "";
        if (!client?.redirectUris.includes(redirectUri)) {
          return response.writeHead(400, { "content-type": "text/html" }).end("<h1>Untrusted client or redirect_uri</h1>");
        }
        const back = new URL(redirectUri);
        back.searchParams.set("state", q.get("state") ?? "");
        back.searchParams.set("iss", settings.iss ?? origin);
        if (q.get("code_challenge_method") !== "S256" || !q.get("code_challenge")) {
          back.searchParams.set("error", "invalid_request");
          back.searchParams.set("error_description", "PKCE with S256 is required");
        } else {
          const code = `code_${random()}`;
          codes.set(code, { clientId: q.get("client_id") as string, challenge: q.get("code_challenge") as string, method: "S256", redirectUri, scope: q.get("scope") ?? "" });
          back.searchParams.set("code", code);
        }
        return response.writeHead(302, { location: back.href }).end();
      }
      case "POST /api/oauth/v1/token": {
        const failure = settings.tokenFailures.shift();
        if (failure) return send(response, failure.status, failure.body, failure.headers);
        const clientId = authenticate(incoming, form);
        if (!clientId) return oauthError(response, 401, "invalid_client", "Client authentication failed");
        switch (form.get("grant_type")) {
          case "authorization_code": {
            const grant = codes.get(form.get("code") ?? "");
            codes.delete(form.get("code") ?? "");
            const verifier = form.get("code_verifier") ?? "";
            const challenge = createHash("sha256").update(verifier).digest("base64url");
            if (!grant || grant.clientId !== clientId || grant.redirectUri !== form.get("redirect_uri") || grant.challenge !== challenge) {
              return oauthError(response, 400, "invalid_grant", "The code, redirect_uri or code_verifier does not match");
            }
            return send(response, 200, tokens(clientId, grant.scope, true));
          }
          case "refresh_token": {
            const refreshToken = form.get("refresh_token") ?? "";
            if (refreshTokens.get(refreshToken) !== clientId) return oauthError(response, 400, "invalid_grant", "Unknown refresh token");
            refreshTokens.delete(refreshToken);
            return send(response, 200, tokens(clientId, "campaigns:read", true));
          }
          case "client_credentials":
            return send(response, 200, tokens(clientId, form.get("scope") ?? "", false));
          default:
            return oauthError(response, 400, "unsupported_grant_type", "Unsupported grant type");
        }
      }
      case "POST /api/oauth/v1/revoke": {
        if (!authenticate(incoming, form)) return oauthError(response, 401, "invalid_client", "Client authentication failed");
        revoked.push(form.get("token") ?? "");
        refreshTokens.delete(form.get("token") ?? "");
        return response.writeHead(200).end();
      }
      default:
        return response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    requests,
    revoked,
    settings,
    /** What a user agent does with the authorization URL: GET it and read where it redirects. */
    async authorize(url: string): Promise<string> {
      const response = await fetch(url, { redirect: "manual" });
      const location = response.headers.get("location");
      if (!location) throw new Error(`no redirect (${response.status})`);
      return location;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
