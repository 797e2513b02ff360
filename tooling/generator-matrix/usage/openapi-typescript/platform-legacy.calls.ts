// An integrator's call with openapi-fetch: the one operation the reference shows, a post's metrics history.
import createClient from "openapi-fetch";
import type { paths } from "../../generated/openapi-typescript/platform-legacy/index.ts";

const legacy = createClient<paths>({ baseUrl: "https://platform.example.test/api/v1", headers: { "x-api-key": "company_key" } });

export async function calls(): Promise<void> {
  const history = await legacy.GET("/posts/{id}/metrics-history", { params: { path: { id: "post_1" }, query: { days: 30, limit: 100 } } });
  if (history.data) console.log(history.data.views);
  if (history.error) console.log(history.error.error, history.error.code);
}
