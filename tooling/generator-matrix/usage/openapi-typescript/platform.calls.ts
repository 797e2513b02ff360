// An integrator's calls with openapi-fetch: the OAuth code exchange with its PKCE verifier, a cursor list, a payout.
import createClient from "openapi-fetch";
import type { paths } from "../../generated/openapi-typescript/platform/index.ts";

const platform = createClient<paths>({ baseUrl: "https://platform.example.test/api/oauth/v1" });
const form = (body: unknown) => new URLSearchParams(body as Record<string, string>).toString();

export async function calls(): Promise<void> {
  await platform.POST("/token", {
    body: { grant_type: "authorization_code", code: "code_1", redirect_uri: "https://app.example.test/cb", code_verifier: "verifier_1" },
    bodySerializer: form,
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  const page = await platform.GET("/webhooks/{id}/deliveries", { params: { path: { id: "wh_1" }, query: { limit: 100 } } });
  // The next cursor, read where there is one: hasMore says which of the two page shapes this is.
  if (page.data) console.log(page.data.hasMore ? page.data.nextCursor : null, page.data.data.length);
  await platform.POST("/payouts/execute", { params: { header: { "Idempotency-Key": "payout-1" } }, body: { amount: 100 } });
}
