import type { components } from "../generated/scraper.types.js";
import { pick } from "../hash.js";
import { baseSize, decodeCursor, encodeCursor, focusedPages, handleOf, pageSizes } from "./catalog.js";
import { catalogOf, type Examples } from "./posts.js";
import type { OperationRules } from "./rules.js";

// The `data` of a success, made to behave like the service: listings walk a catalog that ends (and grows with sandbox
// time), a profile and a focused listing are the requested creator's, a single post echoes its URL and honours the
// enrichment flags. Prism's answer is never changed in place: its examples are shared between requests.

type Data = Record<string, unknown>;
type PostsRequest = components["schemas"]["PostsRequest"];
type ProfileRequest = components["schemas"]["ProfileRequest"];
type PostRequest = components["schemas"]["PostRequest"];
type CreatorRequest = components["schemas"]["CreatorRequest"];
type SinglePost = components["schemas"]["SinglePost"];

export interface Shaping {
  rules: OperationRules;
  /** The request body, already valid against the description. */
  body: Data;
  seed: string;
  /** The magic input the request carries, if any (`nopost`: an empty catalog; `overshoot`: page one overshoots). */
  magic: string | undefined;
  /** The example listing, for posts operations. */
  examples: Examples | undefined;
  /** Sandbox time (Unix ms) when catalogs were as they start, and now: new posts appear in between. */
  since: number;
  now: number;
}

/** One page of the creator's catalog, with `next_cursor` until the last page (never on single-page platforms). */
function postsPage({ rules, body, seed, magic, examples, since, now }: Shaping, paging: NonNullable<OperationRules["paging"]>): Data {
  const username = (body as PostsRequest).username.replace(/^@/, "");
  const identity = [seed, rules.platform ?? "", handleOf(username)];
  const catalog = examples && catalogOf(examples, { seed, platform: rules.platform ?? "", username });
  const base = !catalog || magic === "nopost" ? 0 : baseSize(paging, magic === "overshoot", ...identity);
  const grown = base && catalog ? Math.max(0, Math.floor((now - since) / 1000 / catalog.spacingSeconds)) : 0;
  // A walk keeps the catalog as it was on its first page; any cursor the sandbox did not issue serves page one.
  const sent = paging.mode === "cursor" && paging.request ? decodeCursor(body[paging.request], ...identity) : undefined;
  const resumed = sent?.total !== undefined && sent.total >= base && sent.total <= base + grown;
  const total = resumed ? (sent.total as number) : base + grown;
  const sizes = pageSizes(paging, total, ...identity);
  const page = resumed && sent.page < sizes.length ? sent.page : 0;
  const first = sizes.slice(0, page).reduce((sum, size) => sum + size, 0);
  const newer = total - base;
  // Position p of this catalog, newest first: the posts that appeared since the start, then the catalog it started with.
  const postAt = (p: number) =>
    p < newer ? catalog?.post(base + newer - p - 1, Math.floor(since / 1000) + (newer - p) * (catalog?.spacingSeconds ?? 0)) : catalog?.post(p - newer);
  const data: Data = {
    posts: Array.from({ length: sizes[page] ?? 0 }, (_, offset) => postAt(first + offset)),
    profile_pictures: catalog?.pictures() ?? {},
  };
  if (paging.mode === "cursor" && paging.response && page + 1 < sizes.length) data[paging.response] = encodeCursor({ page: page + 1, total }, ...identity);
  return data;
}

/** The creator a focused listing was asked for: its `handle` (without `@`) or its `unique_id`. */
function creatorOf(body: Data): string | undefined {
  const { handle, unique_id: uniqueId } = body as Partial<CreatorRequest> & Data;
  return typeof handle === "string" ? handle.replace(/^@/, "") : typeof uniqueId === "string" ? uniqueId : undefined;
}

/** A focused listing's page: the requested creator's, with `has_more` and the continuation value of a short walk. */
function focusedPage({ rules, body, seed }: Shaping, paging: NonNullable<OperationRules["paging"]>, data: Data): Data {
  const request = paging.request ?? "";
  const identity = [seed, rules.operationId, JSON.stringify({ ...body, [request]: undefined })];
  const pages = focusedPages(...identity);
  const sent = body[request];
  const page = sent === undefined || sent === paging.start ? 0 : (decodeCursor(sent, ...identity)?.page ?? 0);
  const more = page + 1 < pages;
  const creator = creatorOf(body);
  const shaped: Data = { ...data, [paging.hasMore ?? ""]: more, [paging.response ?? request]: more ? encodeCursor({ page: page + 1 }, ...identity) : null };
  if (creator === undefined) return shaped;
  // The reference: `unique_id` is the requested creator; a playlist of theirs names them as its creator.
  if ("unique_id" in shaped) shaped.unique_id = creator;
  if (Array.isArray(shaped.playlists)) {
    shaped.playlists = shaped.playlists.map((playlist: Data) => ("creator_username" in playlist ? { ...playlist, creator_username: creator } : playlist));
  }
  return shaped;
}

/**
 * The sample of top comments of a post, where requested and honoured: between one and the description's cap, and
 * fewer than the post's comments (never the full thread). The reference does not show a comment's shape, so each
 * entry is an object the sandbox puts no field in.
 */
function commentSample(post: SinglePost, cap: number, ...identity: string[]): object[] {
  const count = post.comments ?? cap;
  if (count <= 0) return [];
  return Array.from({ length: pick(1, Math.max(1, Math.min(cap, count - 1)), ...identity, "comments") }, () => ({}));
}

/** The looked-up post: its URL echoed verbatim, transcript and comments only where requested and honoured. */
function singlePost({ body, seed, rules }: Shaping, enrichment: NonNullable<OperationRules["enrichment"]>, data: Data): Data {
  const request = body as PostRequest;
  const [post] = (data.posts ?? []) as SinglePost[];
  if (!post) return data;
  const comments = enrichment.comments && request.include_comments === true && enrichment.commentCap !== undefined;
  return {
    ...data,
    posts: [
      {
        ...post,
        postPage: request.url,
        transcript: enrichment.transcript && request.include_transcript === true ? (post.transcript ?? null) : null,
        topComments: comments ? commentSample(post, enrichment.commentCap as number, seed, rules.operationId, request.url) : null,
      },
    ],
  };
}

/** A creator's profile: the requested handle, and a display name and follower count of their own. */
function profile({ body, seed, rules }: Shaping, data: Data): Data {
  const username = (body as ProfileRequest).username.replace(/^@/, "");
  const identity = [seed, rules.platform ?? "", handleOf(username)];
  const words = username.split(/[._-]+/).filter(Boolean);
  const display = words.length ? words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join(" ") : username;
  // Spread over orders of magnitude, as real audiences are: 1 to about 5 million.
  const followers = Math.floor(10 ** (pick(0, 6_700, ...identity, "followers") / 1_000));
  return { ...data, username, display_name: display, follower_count: followers };
}

export function shapeData(data: Data, shaping: Shaping): Data {
  const { paging, enrichment, resource } = shaping.rules;
  if (paging?.hasMore) return focusedPage(shaping, paging, data);
  if (paging) return postsPage(shaping, paging);
  if (enrichment) return singlePost(shaping, enrichment, data);
  if (resource === "profile") return profile(shaping, data);
  return data;
}
