// The grants are their RFC 6749 shapes, a page is one of two complete shapes, and what the description forbids is refused.
import { type AuthorizationCodeGrant, executePayout, listWebhookDeliveries } from "../../generated/hey-api/platform/index.ts";

export async function precise(): Promise<void> {
  const grant: AuthorizationCodeGrant = { grant_type: "authorization_code", code: "c", redirect_uri: "https://app.example.test/cb", code_verifier: "v" };
  // @ts-expect-error the PKCE verifier is required
  const withoutVerifier: AuthorizationCodeGrant = { grant_type: "authorization_code", code: "c", redirect_uri: "https://app.example.test/cb" };
  console.log(grant, withoutVerifier);

  const page = await listWebhookDeliveries({ path: { id: "wh_1" } });
  if (page.data) {
    const next: string | null = page.data.hasMore ? page.data.nextCursor : null;
    // @ts-expect-error nextCursor is not a string on the last page
    const always: string = page.data.nextCursor;
    // @ts-expect-error hasMore is a boolean
    const flag: string = page.data.hasMore;
    console.log(next, always, flag);
  }
  // @ts-expect-error Idempotency-Key is required on payout execution
  await executePayout({ body: { amount: 100 } });
}
