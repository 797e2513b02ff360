// An integrator's calls with orval's fetch client: the OAuth code exchange with its PKCE verifier, a cursor list, a payout.
import { executePayout, listWebhookDeliveries, requestToken } from "../../generated/orval/platform/index.ts";

export async function calls(): Promise<void> {
  await requestToken({ grant_type: "authorization_code", code: "code_1", redirect_uri: "https://app.example.test/cb", code_verifier: "verifier_1" });
  const page = await listWebhookDeliveries("wh_1", { limit: 100 });
  // The next cursor, read where there is one: hasMore says which of the two page shapes this is.
  if ("hasMore" in page.data) console.log(page.data.hasMore ? page.data.nextCursor : null, page.data.data.length);
  await executePayout({ amount: 100 }, { headers: { "Idempotency-Key": "payout-1" } });
}
