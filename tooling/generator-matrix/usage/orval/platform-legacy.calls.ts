// An integrator's call with orval's fetch client (with `includeHttpResponseReturnType: false`, spec/README.md): the one
// operation the reference shows, a post's metrics history.
import { getPostMetricsHistory } from "../../generated/orval/platform-legacy/index.ts";

export async function calls(): Promise<void> {
  const history = await getPostMetricsHistory("post_1", { days: 30, limit: 100 }, { headers: { "x-api-key": "company_key" } });
  console.log(history.views);
}
