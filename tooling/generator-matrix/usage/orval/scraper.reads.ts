// Every cursor listing's next cursor and every error body, read as the description types them, through orval's client.
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
} from "../../generated/orval/scraper/index.ts";

/** An error body: its code, words, request id and the field at fault, whatever the status; the gateway's 504 is text. */
function failure(error: ErrorEnvelope | string): string {
  if (typeof error === "string") return error;
  const code: ErrorEnvelope["error"] = error.error;
  const requestId: string = error.request_id;
  return `${code}: ${error.message} (${requestId}) ${error.field ?? ""} ${error.reason ?? ""}`;
}

export async function reads(): Promise<unknown[]> {
  const body = { username: "creator" };
  const creator = { handle: "maya.bakes", cursor: "0" };
  // The normalized listings: `next_cursor` is absent or empty after the last page.
  const listings = [await shortvideoPosts(body), await photosharePosts(body), await videositePosts(body), await socialnetPosts(body), await microblogPosts(body)];
  const next = listings.map((page): string | undefined => (page.status === 200 ? page.data.data.next_cursor : failure(page.data)));
  // The focused listings: `cursor` to send back while `has_more` is true.
  const focused = [await shortvideoFavorites(creator), await shortvideoReposts(creator), await shortvideoPlaylists(creator)];
  const more = focused.map((page): [string | null, boolean] | string => (page.status === 200 ? [page.data.data.cursor, page.data.data.has_more] : failure(page.data)));
  const first = listings[0];
  // @ts-expect-error next_cursor may be absent
  const always: string = first?.status === 200 ? first.data.data.next_cursor : "";
  return [next, more, always];
}
