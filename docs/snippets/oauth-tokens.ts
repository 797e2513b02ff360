import { type OAuthClient, protocolError } from "./oauth-register.js";

export interface Tokens {
  accessToken: string;
  /** Present when the client registered the refresh_token grant. */
  refreshToken: string | undefined;
  /** Epoch milliseconds; access tokens live 3600 s. */
  expiresAt: number;
}

/** POST {oauth_base_url}/token, authenticating as the client registered. */
async function requestTokens(client: OAuthClient, grant: Record<string, string>) {
  const headers = new Headers({ "content-type": "application/x-www-form-urlencoded" });
  const params = new URLSearchParams(grant);
  if (client.clientSecret) {
    const id = encodeURIComponent(client.clientId);
    const secret = encodeURIComponent(client.clientSecret);
    headers.set("authorization", `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`);
  } else {
    params.set("client_id", client.clientId); // a public client: PKCE alone
  }
  const init = { method: "POST", headers, body: params };
  const response = await fetch(`${client.baseUrl}/token`, init);
  // invalid_grant, for example, means: start a new authorization.
  if (!response.ok) throw await protocolError(response);
  const body = (await response.json()) as {
    access_token: string;
    refresh_token?: string;
    expires_in: number;
  };
  const tokens: Tokens = {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    expiresAt: Date.now() + body.expires_in * 1000,
  };
  return tokens;
}

export function exchangeCode(client: OAuthClient, code: string, verifier: string) {
  return requestTokens(client, {
    grant_type: "authorization_code",
    code,
    redirect_uri: client.redirectUri,
    code_verifier: verifier,
  });
}

export function refreshTokens(client: OAuthClient, refreshToken: string) {
  return requestTokens(client, { grant_type: "refresh_token", refresh_token: refreshToken });
}
