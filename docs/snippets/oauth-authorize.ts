import { createHash, randomBytes } from "node:crypto";
import type { OAuthClient } from "./oauth-register.js";

/**
 * Starts the authorization code flow with PKCE; the platform requires the S256 method.
 * Keep `verifier` and `state` on your server with the user's session, and send the
 * user's browser to `url`.
 */
export function startAuthorization(client: OAuthClient, scopes: string[]) {
  const verifier = randomBytes(32).toString("base64url");
  const state = randomBytes(16).toString("base64url");
  const url = new URL(`${client.baseUrl}/authorize`);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    scope: scopes.join(" "), // e.g. ["campaigns:read", "invoices:write"]
    state,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  }).toString();
  return { url: url.href, verifier, state };
}

/** The request to your `redirect_uri`: check `state`, then return the code to exchange. */
export function readCallback(callbackUrl: string, expectedState: string): string {
  const params = new URL(callbackUrl).searchParams;
  if (params.get("state") !== expectedState) {
    throw new Error("state does not match: not the authorization you started");
  }
  const error = params.get("error");
  if (error) {
    throw new Error(`authorization failed: ${error} ${params.get("error_description") ?? ""}`);
  }
  const code = params.get("code");
  if (!code) throw new Error("the callback carries no code");
  return code;
}
