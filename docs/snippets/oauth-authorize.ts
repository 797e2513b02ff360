import { authorizationUrl, type OAuthServer } from "@content-scraper/platform/oauth";

/**
 * Starts the authorization code flow with PKCE, using S256, the only method allowed. Keep `pending`
 * on your server with the user's session, and send the user's browser to `url`.
 */
export async function startAuthorization(server: OAuthServer, clientId: string, redirectUri: string) {
  const { url, state, codeVerifier } = await authorizationUrl({
    server,
    clientId,
    redirectUri,
    scope: "campaigns:read posts:read invoices:read invoices:write offline_access",
  });
  return { url, pending: { state, codeVerifier } };
}
