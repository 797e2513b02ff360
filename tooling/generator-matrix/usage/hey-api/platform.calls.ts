// An integrator's calls with @hey-api/openapi-ts's SDK: the OAuth code exchange with its PKCE verifier, a cursor list, a payout.
import { client } from "../../generated/hey-api/platform/client.gen.ts";
import { executePayout, listWebhookDeliveries, requestToken } from "../../generated/hey-api/platform/index.ts";

client.setConfig({ baseUrl: "https://platform.example.test/api/oauth/v1" });

export async function calls(): Promise<void> {
  await requestToken({
    body: { grant_type: "authorization_code", code: "code_1", redirect_uri: "https://app.example.test/cb", code_verifier: "verifier_1" },
  });
  const page = await listWebhookDeliveries({ path: { id: "wh_1" }, query: { limit: 100 } });
  // The next cursor, read where there is one: hasMore says which of the two page shapes this is.
  if (page.data) console.log(page.data.hasMore ? page.data.nextCursor : null, page.data.data.length);
  await executePayout({ headers: { "Idempotency-Key": "payout-1" }, body: { amount: 100 } });
}
