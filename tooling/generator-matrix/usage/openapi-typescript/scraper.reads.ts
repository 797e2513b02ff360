// Every cursor listing's next cursor and every error body, read as the description types them, through openapi-fetch.
import createClient from "openapi-fetch";
import type { components, paths } from "../../generated/openapi-typescript/scraper/index.ts";

const scraper = createClient<paths>({ baseUrl: "https://scraper.example.test/api/v1" });
type ErrorEnvelope = components["schemas"]["ErrorEnvelope"];

/** An error body: its code, words, request id and the field at fault, whatever the status; the gateway's 504 is text. */
function failure(error: ErrorEnvelope | string | undefined): string | undefined {
  if (error === undefined || typeof error === "string") return error;
  const code: components["schemas"]["ErrorCode"] = error.error;
  const requestId: string = error.request_id;
  return `${code}: ${error.message} (${requestId}) ${error.field ?? ""} ${error.reason ?? ""}`;
}

export async function reads(): Promise<unknown[]> {
  const body = { username: "creator" };
  const creator = { handle: "maya.bakes", cursor: "0" };
  // The normalized listings: `next_cursor` is absent or empty after the last page.
  const listings = [
    await scraper.POST("/scrape/shortvideo/posts", { body }),
    await scraper.POST("/scrape/photoshare/posts", { body }),
    await scraper.POST("/scrape/videosite/posts", { body }),
    await scraper.POST("/scrape/socialnet/posts", { body }),
    await scraper.POST("/scrape/microblog/posts", { body }),
  ];
  const next = listings.map((page): string | undefined => {
    failure(page.error);
    return page.data?.data.next_cursor;
  });
  // The focused listings: `cursor` to send back while `has_more` is true.
  const focused = [
    await scraper.POST("/scrape/shortvideo/favorites", { body: creator }),
    await scraper.POST("/scrape/shortvideo/reposts", { body: creator }),
    await scraper.POST("/scrape/shortvideo/playlists", { body: creator }),
  ];
  const more = focused.map((page): [string | null, boolean] | undefined => {
    failure(page.error);
    return page.data && [page.data.data.cursor, page.data.data.has_more];
  });
  // @ts-expect-error next_cursor may be absent
  const always: string = listings[0]?.data?.data.next_cursor;
  return [next, more, always];
}
