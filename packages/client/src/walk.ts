import { ScraperResponseError } from "./errors.js";
import type { ScraperMeta } from "./meta.js";
import { operation, type OperationId } from "./rules.js";
import type { ListedPost, Platform, PostsData, PostsOptions, ScraperResult } from "./types.js";

/** The de-duplication key of a post: its platform plus the platform's own id (never `postPage`). */
export function postKey(post: { id: string; platform: string }): string {
  return `${post.platform}:${post.id}`;
}

/** The options of `walkPosts`: the request options, the limits of the walk and a callback after every page. */
export type WalkOptions<P extends Platform> = Omit<PostsOptions<P>, "cursor"> & {
  /** Stop before requesting more pages than this. */
  maxPages?: number | undefined;
  /** Stop before a page whose cost (the last page's charge, at first the description's standard rate) would exceed this. */
  maxCredits?: number | undefined;
  /** Called after every page, e.g. to persist the cursor and the credits spent. */
  onPage?: ((page: { data: PostsData<P>; meta: ScraperMeta; pageNumber: number; creditsSpent: number }) => void) | undefined;
};

type FetchPage<P extends Platform> = (cursor: string | undefined) => Promise<ScraperResult<PostsData<P>>>;

/** A page's posts, checked: an array of objects, else a `ScraperResponseError` (never a `TypeError` mid-walk). */
function postsOf<P extends Platform>(platform: P, data: PostsData<P>): Array<ListedPost<P>> {
  const posts: unknown = (data as { posts?: unknown }).posts;
  if (Array.isArray(posts) && posts.every((post) => typeof post === "object" && post !== null)) return posts as Array<ListedPost<P>>;
  const operationId = `${platform}Posts`;
  const problem = { path: "/data/posts", message: "data.posts is missing or not an array of posts", keyword: "type" };
  throw new ScraperResponseError(`${operationId} answered with a page whose ${problem.message}`, operationId, 200, [problem]);
}

/**
 * A creator's catalog, page by page: follow `next_cursor` verbatim and stop when it is absent or empty, never on the
 * page size (first pages overshoot, short pages occur mid-walk). Single-page platforms are one request. Posts are
 * yielded once per `platform` + `id`.
 */
export async function* walk<P extends Platform>(platform: P, fetchPage: FetchPage<P>, options: WalkOptions<P>): AsyncGenerator<ListedPost<P>> {
  const rules = operation(`${platform}Posts` as OperationId);
  const paging = "paging" in rules ? rules.paging : undefined;
  const cursorField = paging && "response" in paging ? paging.response : undefined;
  const maxPages = options.maxPages ?? Number.POSITIVE_INFINITY;
  const maxCredits = options.maxCredits ?? Number.POSITIVE_INFINITY;
  let pageCost: number = "credits" in rules ? rules.credits.standard : 0;
  let creditsSpent = 0;
  let cursor: string | undefined;
  const cursorsSent = new Set<string>();
  const seen = new Set<string>();

  for (let pageNumber = 1; pageNumber <= maxPages && creditsSpent + pageCost <= maxCredits; pageNumber++) {
    const { data, meta } = await fetchPage(cursor);
    creditsSpent += meta.creditsCharged;
    pageCost = meta.creditsCharged;
    options.onPage?.({ data, meta, pageNumber, creditsSpent });
    for (const post of postsOf(platform, data)) {
      const key = postKey(post);
      if (seen.has(key)) continue;
      seen.add(key);
      yield post;
    }
    const next = paging?.mode === "cursor" && cursorField ? (data as Record<string, unknown>)[cursorField] : undefined;
    // A cursor we already sent would loop, billing every lap: treat it as the end.
    if (typeof next !== "string" || next === "" || cursorsSent.has(next)) return;
    cursorsSent.add(next);
    cursor = next;
  }
}

/** Page one's posts that are not in `seen` (post ids, or `postKey`s): what appeared since the last poll. */
export async function* unseen<P extends Platform>(platform: P, fetchPage: FetchPage<P>, seen: { has(key: string): boolean }): AsyncGenerator<ListedPost<P>> {
  const { data } = await fetchPage(undefined);
  const yielded = new Set<string>();
  for (const post of postsOf(platform, data)) {
    const key = postKey(post);
    if (seen.has(post.id) || seen.has(key) || yielded.has(key)) continue;
    yielded.add(key);
    yield post;
  }
}
