// The history's shape is not shown, so it reads as unknown; limit is an integer; errors carry their message.
import { getPostMetricsHistory } from "../../generated/hey-api/platform-legacy/index.ts";

export async function precise(): Promise<void> {
  const history = await getPostMetricsHistory({ path: { id: "post_1" } });
  if (history.data) {
    const views: unknown = history.data.views;
    console.log(views);
  }
  if (history.error) {
    const message: string = history.error.error;
    console.log(message);
  }
  // @ts-expect-error limit is an integer
  await getPostMetricsHistory({ path: { id: "post_1" }, query: { limit: "100" } });
}
