// The history's shape is not shown, so it reads as unknown; limit is an integer; errors carry their message.
import { getPostMetricsHistory, type PostMetricsHistory } from "../../generated/orval/platform-legacy/index.ts";

export async function precise(history: PostMetricsHistory): Promise<void> {
  const views: unknown = history.views;
  console.log(views);
  const answer = await getPostMetricsHistory("post_1");
  if (answer.status === 400) {
    const message: string = answer.data.error;
    console.log(message);
  }
  // @ts-expect-error limit is an integer
  await getPostMetricsHistory("post_1", { limit: "100" });
}
