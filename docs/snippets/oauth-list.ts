import { type CursorPage, cursorItems, type PlatformClient } from "@content-scraper/platform";

/**
 * Every item of an OAuth list endpoint: the first page without a cursor, then each `nextCursor`
 * passed back as is (it is opaque) while `hasMore`. `limit` defaults to 25, at most 100.
 */
export function listAll<T>(platform: PlatformClient, path: string) {
  return cursorItems<T>(async (cursor) => {
    const { data } = await platform.request<CursorPage<T>>("GET", path, { query: { cursor, limit: 100 } });
    return data ?? { data: [], hasMore: false };
  });
}

// A webhook's deliveries have a method of their own, which walks the same way.
export async function countDeliveries(platform: PlatformClient, webhookId: string) {
  let count = 0;
  for await (const _delivery of platform.webhookDeliveries(webhookId, { limit: 100 })) count++;
  return count;
}
