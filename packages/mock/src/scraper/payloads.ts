import type { components } from "../generated/scraper.types.js";
import { decodeCursor, encodeCursor, focusedPages, handleOf, pageSizes } from "./catalog.js";
import { catalogOf, type Examples } from "./posts.js";
import type { OperationRules } from "./rules.js";

// The `data` of a success, made to behave like the service: listings walk a catalog that ends, a profile is the
// requested creator's, a single post echoes its URL and honours the enrichment flags. Prism's answer is never
// changed in place: its examples are shared between requests.

type Data = Record<string, unknown>;
type PostsRequest = components["schemas"]["PostsRequest"];
type ProfileRequest = components["schemas"]["ProfileRequest"];
type PostRequest = components["schemas"]["PostRequest"];
type SinglePost = components["schemas"]["SinglePost"];

export interface Shaping {
  rules: OperationRules;
  /** The request body, already valid against the description. */
  body: Data;
  seed: string;
  /** The `nopost` magic input: an empty catalog. */
  empty: boolean;
  /** The example listing, for posts operations. */
  examples: Examples | undefined;
}

/** One page of the creator's catalog, with `next_cursor` until the last page (never on single-page platforms). */
function postsPage({ rules, body, seed, empty, examples }: Shaping, paging: NonNullable<OperationRules["paging"]>): Data {
  const username = (body as PostsRequest).username.replace(/^@/, "");
  const identity = [seed, rules.platform ?? "", handleOf(username)];
  const sizes = pageSizes(paging, empty || !examples, ...identity);
  const page = paging.mode === "cursor" && paging.request ? decodeCursor(body[paging.request], sizes.length, ...identity) : 0;
  const first = sizes.slice(0, page).reduce((sum, size) => sum + size, 0);
  const catalog = examples && catalogOf(examples, { seed, platform: rules.platform ?? "", username });
  const data: Data = {
    posts: Array.from({ length: sizes[page] ?? 0 }, (_, offset) => catalog?.post(first + offset)),
    profile_pictures: catalog?.pictures() ?? {},
  };
  if (paging.mode === "cursor" && paging.response && page + 1 < sizes.length) data[paging.response] = encodeCursor(page + 1, ...identity);
  return data;
}

/** A focused listing's page: `has_more` and the continuation value follow a short deterministic walk. */
function focusedPage({ rules, body, seed }: Shaping, paging: NonNullable<OperationRules["paging"]>, data: Data): Data {
  const request = paging.request ?? "";
  const identity = [seed, rules.operationId, JSON.stringify({ ...body, [request]: undefined })];
  const pages = focusedPages(...identity);
  const sent = body[request];
  const page = sent === undefined || sent === paging.start ? 0 : decodeCursor(sent, pages, ...identity);
  const more = page + 1 < pages;
  return { ...data, [paging.hasMore ?? ""]: more, [paging.response ?? request]: more ? encodeCursor(page + 1, ...identity) : null };
}

/** The looked-up post: its URL echoed verbatim, transcript and comments only where requested and honoured. */
function singlePost({ body }: Shaping, enrichment: NonNullable<OperationRules["enrichment"]>, data: Data): Data {
  const request = body as PostRequest;
  const [post] = (data.posts ?? []) as SinglePost[];
  if (!post) return data;
  const comments = enrichment.comments && request.include_comments === true ? (post.topComments ?? null) : null;
  return {
    ...data,
    posts: [
      {
        ...post,
        postPage: request.url,
        transcript: enrichment.transcript && request.include_transcript === true ? (post.transcript ?? null) : null,
        topComments: comments && enrichment.commentCap !== undefined ? comments.slice(0, enrichment.commentCap) : comments,
      },
    ],
  };
}

export function shapeData(data: Data, shaping: Shaping): Data {
  const { paging, enrichment, resource } = shaping.rules;
  if (paging?.hasMore) return focusedPage(shaping, paging, data);
  if (paging) return postsPage(shaping, paging);
  if (enrichment) return singlePost(shaping, enrichment, data);
  if (resource === "profile") return { ...data, username: (shaping.body as ProfileRequest).username.replace(/^@/, "") };
  return data;
}
