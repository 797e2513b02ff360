import { discover, type OAuthOptions, registerClient } from "@content-scraper/platform/oauth";

/**
 * Finds the authorization server of the shared host (`https://<host>`) from its metadata at
 * `/.well-known/oauth-authorization-server`, then registers a client (RFC 7591). List
 * `refresh_token` among the grant types: refresh tokens are issued only to clients that registered it.
 */
export async function register(host: string, redirectUri: string, options: OAuthOptions = {}) {
  const server = await discover(host, options); // refused unless the metadata's issuer is `host`
  const client = await registerClient({
    server,
    metadata: {
      client_name: "Acme campaign reports",
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    },
  });
  // Store client.clientId (and client.clientSecret, if the server issued one) with your configuration.
  return { server, client };
}
