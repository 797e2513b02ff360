// The history's shape is not shown, so it reads as unknown; limit is an integer; errors carry their message.
import createClient from "openapi-fetch";
import type { paths } from "../../generated/openapi-typescript/platform-legacy/index.ts";

const legacy = createClient<paths>({ baseUrl: "https://platform.example.test/api/v1" });

export async function precise(): Promise<void> {
  const history = await legacy.GET("/posts/{id}/metrics-history", { params: { path: { id: "post_1" } } });
  if (history.data) {
    const views: unknown = history.data.views;
    console.log(views);
  }
  if (history.error) {
    const message: string = history.error.error;
    console.log(message);
  }
  // @ts-expect-error limit is an integer
  await legacy.GET("/posts/{id}/metrics-history", { params: { path: { id: "post_1" }, query: { limit: "100" } } });
}
