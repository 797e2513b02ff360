/** Your OAuth client. `baseUrl` is `{oauth_base_url}`: https://<host>/api/oauth/v1. */
export interface OAuthClient {
  baseUrl: string;
  clientId: string;
  clientSecret: string | undefined;
  redirectUri: string;
}

/** An RFC 6749 error body from a protocol endpoint: `{ error, error_description }`. */
export class OAuthProtocolError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    description: string | undefined,
  ) {
    super(`${code}${description ? `: ${description}` : ""}`);
  }
}

export async function protocolError(response: Response): Promise<OAuthProtocolError> {
  const body = (await response.json().catch(() => ({}))) as {
    error?: string;
    error_description?: string;
  };
  const code = body.error ?? `HTTP ${response.status}`;
  return new OAuthProtocolError(response.status, code, body.error_description);
}

/**
 * Dynamic Client Registration (RFC 7591). List `refresh_token` among the grant types:
 * refresh tokens are issued only to clients that registered it.
 */
export async function registerClient(baseUrl: string, redirectUri: string) {
  const response = await fetch(`${baseUrl}/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Acme campaign reports",
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    }),
  });
  if (!response.ok) throw await protocolError(response);
  const client = (await response.json()) as { client_id: string; client_secret?: string };
  const registered: OAuthClient = {
    baseUrl,
    clientId: client.client_id,
    clientSecret: client.client_secret,
    redirectUri,
  };
  return registered;
}
