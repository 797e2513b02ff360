// The grants are their RFC 6749 shapes, a page is one of two complete shapes, and what the description forbids is refused.
import type { AuthorizationCodeGrant, WebhookDeliveryPage } from "../../generated/orval/platform/index.ts";

export function precise(page: WebhookDeliveryPage): void {
  const grant: AuthorizationCodeGrant = { grant_type: "authorization_code", code: "c", redirect_uri: "https://app.example.test/cb", code_verifier: "v" };
  // @ts-expect-error the PKCE verifier is required
  const withoutVerifier: AuthorizationCodeGrant = { grant_type: "authorization_code", code: "c", redirect_uri: "https://app.example.test/cb" };
  console.log(grant, withoutVerifier);

  const next: string | null = page.hasMore ? page.nextCursor : null;
  // @ts-expect-error nextCursor is not a string on the last page
  const always: string = page.nextCursor;
  // @ts-expect-error hasMore is a boolean
  const flag: string = page.hasMore;
  console.log(next, always, flag);
}
