// Every cursor listing's next cursor and every error body, read as the description types them, through hey-api's SDK.
import {
  type ErrorEnvelope,
  microblogPosts,
  photosharePosts,
  shortvideoFavorites,
  shortvideoPlaylists,
  shortvideoPosts,
  shortvideoReposts,
  socialnetPosts,
  videositePosts,
} from "../../generated/hey-api/scraper/index.ts";

/** An error body: its code, words, request id and the field at fault, whatever the status; the gateway's 504 is text. */
function failure(error: ErrorEnvelope | string | undefined): string | undefined {
  if (error === undefined || typeof error === "string") return error;
  const code: ErrorEnvelope["error"] = error.error;
  const requestId: string = error.request_id;
  return `${code}: ${error.message} (${requestId}) ${error.field ?? ""} ${error.reason ?? ""}`;
}

export async function reads(): Promise<unknown[]> {
  const body = { username: "creator" };
  const creator = { handle: "maya.bakes", cursor: "0" };
  // The normalized listings: `next_cursor` is absent or empty after the last page.
  const listings = [
    await shortvideoPosts({ body }),
    await photosharePosts({ body }),
    await videositePosts({ body }),
    await socialnetPosts({ body }),
    await microblogPosts({ body }),
  ];
  const next = listings.map((page): string | undefined => {
    failure(page.error);
    return page.data?.data.next_cursor;
  });
  // The focused listings: `cursor` to send back while `has_more` is true.
  const focused = [await shortvideoFavorites({ body: creator }), await shortvideoReposts({ body: creator }), await shortvideoPlaylists({ body: creator })];
  const more = focused.map((page): [string | null, boolean] | undefined => {
    failure(page.error);
    return page.data && [page.data.data.cursor, page.data.data.has_more];
  });
  // @ts-expect-error next_cursor may be absent
  const always: string = listings[0]?.data?.data.next_cursor;
  return [next, more, always];
}
