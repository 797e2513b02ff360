// An integrator's calls with orval's fetch client (with `includeHttpResponseReturnType: false`, spec/README.md): the OAuth
// code exchange with its PKCE verifier, a cursor list, a payout.
import { executePayout, listWebhookDeliveries, requestToken } from "../../generated/orval/platform/index.ts";

export async function calls(): Promise<void> {
  const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
  await requestToken({ grant_type: "authorization_code", code: "code_1", redirect_uri: "https://app.example.test/cb", code_verifier: verifier });
  const page = await listWebhookDeliveries("wh_1", { limit: 100 });
  // The next cursor, read where there is one: hasMore says which of the two page shapes this is.
  console.log(page.hasMore ? page.nextCursor : null, page.data.length);
  await executePayout({ amount: 100 }, { headers: { "Idempotency-Key": "payout-1" } });
}
