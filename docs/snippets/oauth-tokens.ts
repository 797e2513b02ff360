import { exchangeCode, type OAuthServer, type RegisteredClient, revoke, type TokenSet } from "@content-scraper/platform/oauth";

/**
 * Your `redirect_uri` handler. `callbackUrl` is the full URL the browser came back to: `state` and
 * `iss` are checked (RFC 9207), an `error` redirect throws `OAuthProtocolError`, and the code is
 * exchanged at `/token` with the PKCE verifier.
 */
export function finishAuthorization(
  server: OAuthServer,
  client: RegisteredClient,
  redirectUri: string,
  callbackUrl: string,
  pending: { state: string; codeVerifier: string },
): Promise<TokenSet> {
  return exchangeCode({
    server,
    clientId: client.clientId,
    clientSecret: client.clientSecret, // undefined for a public client: PKCE alone
    redirectUri,
    callbackUrl,
    expectedState: pending.state,
    codeVerifier: pending.codeVerifier,
  });
}

/** When the company disconnects your app: revoke its refresh token at `/revoke`. */
export async function disconnect(server: OAuthServer, client: RegisteredClient, tokens: TokenSet) {
  const token = tokens.refreshToken ?? tokens.accessToken;
  const tokenTypeHint = tokens.refreshToken ? "refresh_token" : "access_token";
  await revoke({ server, clientId: client.clientId, clientSecret: client.clientSecret, token, tokenTypeHint });
}
