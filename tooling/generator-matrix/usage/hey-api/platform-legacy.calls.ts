// An integrator's call with @hey-api/openapi-ts's SDK: the one operation the reference shows, a post's metrics history.
import { client } from "../../generated/hey-api/platform-legacy/client.gen.ts";
import { getPostMetricsHistory } from "../../generated/hey-api/platform-legacy/index.ts";

client.setConfig({ baseUrl: "https://platform.example.test/api/v1", headers: { "x-api-key": "company_key" } });

export async function calls(): Promise<void> {
  const history = await getPostMetricsHistory({ path: { id: "post_1" }, query: { days: 30, limit: 100 } });
  if (history.data) console.log(history.data.views);
  if (history.error) console.log(history.error.error, history.error.code);
}
