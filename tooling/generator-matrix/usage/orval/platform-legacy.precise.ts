// The history's shape is not shown, so it reads as unknown; limit is an integer; errors carry their message.
import { type BadRequestResponse, getPostMetricsHistory } from "../../generated/orval/platform-legacy/index.ts";

export async function precise(failure: BadRequestResponse): Promise<void> {
  const history = await getPostMetricsHistory("post_1");
  const views: unknown = history.views;
  const message: string = failure.error;
  console.log(views, message);
  // @ts-expect-error limit is an integer
  await getPostMetricsHistory("post_1", { limit: "100" });
}
