import { createPlatformClient, PlatformApiError, SubscriptionRequiredError } from "@content-scraper/platform";
import { type OAuthServer, type RegisteredClient, refreshingAccessToken, type TokenSet } from "@content-scraper/platform/oauth";

/**
 * A client acting for one company: its tokens are refreshed a minute before they expire (after
 * 3600 s), and `save` stores each new set, rotated refresh token included.
 */
export function platformFor(
  baseUrl: string, // {oauth_base_url}: https://<host>/api/oauth/v1
  grant: { server: OAuthServer; client: RegisteredClient; tokens: TokenSet },
  save: (tokens: TokenSet) => Promise<void>,
) {
  const { server, client, tokens } = grant;
  const { clientId, clientSecret } = client;
  return createPlatformClient({
    baseUrl,
    getAccessToken: refreshingAccessToken({ server, clientId, clientSecret, tokens, onRefresh: save }),
  });
}

/** What to do about a failed call. Branch on `code`, never on `message`. */
export function nextStep(error: unknown): string {
  if (error instanceof SubscriptionRequiredError) return "ask the company to renew its subscription";
  if (!(error instanceof PlatformApiError)) throw error;
  switch (error.code) {
    case "unauthorized":
      return "refresh the token, or authorize again";
    case "insufficient_scope":
      return `authorize again, asking for ${error.challenge?.scope ?? "the missing scope"}`;
    case "forbidden":
      return "never allowed for this grant: don't retry";
    case "not_found":
      return "no such id for this company";
    case "idempotency_conflict":
      return "a bug: this Idempotency-Key was used with another body";
    case "rate_limited":
      return "still limited after the client's retries: try again later";
    default:
      return `quote request ${error.requestId} to support`;
  }
}
