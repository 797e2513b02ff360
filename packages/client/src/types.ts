import type { ScraperResult } from "./meta.js";
import type { Walk, WalkLimits, WalkPage } from "./walk.js";
import type { OperationId } from "./rules.js";
import type { components, operations } from "./generated/scraper.types.js";

// Public types, derived from the generated description types so that each platform gets its own shapes.

export type { ResponseInfo, ScraperResult } from "./meta.js";

/** A platform token: `shortvideo`, `photoshare`, `videosite`, `socialnet`, `ephemeral`, `microblog` or `professional`. */
export type Platform = components["schemas"]["Platform"];
/** The JSON body of every error answer: `error` (the code), `message`, `request_id`, and the fields some codes add. */
export type ErrorBody = components["schemas"]["ErrorEnvelope"];

type JsonOf<T> = T extends { content: { "application/json": infer Body } } ? Body : never;

/** The 200 body of an operation. */
export type SuccessBody<Id extends OperationId> = JsonOf<operations[Id]["responses"][200]>;
/** The `data` of an operation's 200 body. */
export type SuccessData<Id extends OperationId> = SuccessBody<Id>["data"];
/** The JSON request body of an operation. */
export type RequestBody<Id extends OperationId> = NonNullable<operations[Id]["requestBody"]> extends { content: { "application/json": infer Body } }
  ? Body
  : never;

/** Per-request options, on every method (and, as defaults, on `withOptions`). */
export interface RequestOptions {
  signal?: AbortSignal | undefined;
  /** Overrides the client's and the description's timeout for this call (each attempt). */
  timeoutMs?: number | undefined;
  /** Overrides the client's `retry.maxRetries` for this call. */
  maxRetries?: number | undefined;
  /** Extra request headers (the key is always the client's own). */
  headers?: Readonly<Record<string, string>> | undefined;
}

type PlatformsWith<Resource extends string> = { [P in Platform]: `${P}${Resource}` extends OperationId ? P : never }[Platform];

/** The platforms with an audience operation (`shortvideo`, `photoshare`). */
export type AudiencePlatform = PlatformsWith<"Audience">;

/** The `data` of a profile on platform `P`. */
export type ProfileData<P extends Platform> = SuccessData<`${P}Profile`>;
/** The `data` of one page of posts on platform `P`: `posts`, `profile_pictures` and, where the platform pages, `next_cursor`. */
export type PostsData<P extends Platform> = SuccessData<`${P}Posts`>;
/** The `data` of a single post on platform `P`: `posts` (one post) and `profile_pictures`. */
export type PostData<P extends Platform> = SuccessData<`${P}Post`>;
/** The `data` of an audience lookup on platform `P` (`shortvideo` or `photoshare`). */
export type AudienceData<P extends AudiencePlatform> = SuccessData<`${P}Audience`>;
/** A post as listed on platform `P`. */
export type ListedPost<P extends Platform> = PostsData<P>["posts"][number];

/** `contentType` exists on the videosite posts request only. */
export type PostsOptions<P extends Platform> = RequestOptions & {
  cursor?: string | undefined;
} & (RequestBody<`${P}Posts`> extends { contentType?: infer C } ? { contentType?: C | undefined } : { contentType?: never });

export interface PostOptions extends RequestOptions {
  includeTranscript?: boolean | undefined;
  includeComments?: boolean | undefined;
}

/** The body of an audience request on platform `P`: any object (v1.3.0 documents none of its fields). */
export type AudienceRequest<P extends AudiencePlatform> = RequestBody<`${P}Audience`>;

type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;
type FocusedOperations = typeof import("./generated/scraper.operations.js").focusedOperations;
/** The operationId of a focused operation (`shortvideoFavorites`, …). */
export type FocusedOperationId = keyof FocusedOperations;
/** A platform with focused operations: `shortvideo`. */
export type FocusedPlatform = FocusedOperations[FocusedOperationId]["platform"];
type FocusedId<P extends FocusedPlatform> = {
  [Id in FocusedOperationId]: FocusedOperations[Id]["platform"] extends P ? Id : never;
}[FocusedOperationId];

/** A focused operation's method: the body in the platform's own field names, optional where the description allows. */
export type FocusedMethod<Id extends FocusedOperationId> = FocusedOperations[Id]["requestBodyRequired"] extends true
  ? (body: RequestBody<Id>, options?: RequestOptions) => Promise<ScraperResult<SuccessData<Id>>>
  : (body?: RequestBody<Id>, options?: RequestOptions) => Promise<ScraperResult<SuccessData<Id>>>;

type PagedId<P extends FocusedPlatform> = {
  [Id in FocusedId<P>]: FocusedOperations[Id] extends { paging: { mode: "cursor" } } ? Id : never;
}[FocusedId<P>];
type OperationTable = typeof import("./generated/scraper.operations.js").operations & FocusedOperations;
/** The operationId of a listing: an operation whose answer is a page of items, which the description says how to walk. */
export type PagedOperationId = { [Id in OperationId]: OperationTable[Id] extends { paging: object } ? Id : never }[OperationId];
type ItemsField<Id extends OperationId> = OperationTable[Id] extends { paging: { items: infer Field extends string } } ? Field : never;
/** An item of a listing (a post of `shortvideoPosts`, a video of `shortvideoFavorites`). */
export type OperationItem<Id extends OperationId> = SuccessData<Id> extends infer Data ? (Data extends Record<ItemsField<Id>, Array<infer Item>> ? Item : never) : never;
/** An item of a focused listing (a video of `favorites`, a playlist of `playlists`). */
export type FocusedItem<Id extends FocusedOperationId> = OperationItem<Id>;
/** The body of a listing's walk: its request without the cursor, which the walk sends. */
export type OperationWalkBody<Id extends OperationId> = RequestBody<Id> extends infer Body ? (Body extends unknown ? Omit<Body, "cursor"> : never) : never;
/** The body of a focused listing's walk: its request without the cursor, which the walk sends. */
export type FocusedWalkBody<Id extends FocusedOperationId> = OperationWalkBody<Id>;

/**
 * The focused operations of a platform, named after their path (`search-suggestions` → `searchSuggestions`), and walks
 * over its cursor listings: what `focusedClient(scraper, platform)` returns.
 */
export type FocusedClient<P extends FocusedPlatform> = {
  [Id in FocusedId<P> as CamelCase<NonNullable<FocusedOperations[Id]["resource"]>>]: FocusedMethod<Id>;
} & {
  /** Every item of a focused cursor listing (`walkFavorites`, `walkReposts`, `walkPlaylists`), resumable like `walkPosts`. */
  [Id in PagedId<P> as `walk${Capitalize<CamelCase<NonNullable<FocusedOperations[Id]["resource"]>>>}`]: (
    body: FocusedWalkBody<Id>,
    options?: WalkOptions,
  ) => Walk<FocusedItem<Id>>;
} & {
  /** Every page of a focused cursor listing, with its `meta` and `nextCursor`. */
  [Id in PagedId<P> as `walk${Capitalize<CamelCase<NonNullable<FocusedOperations[Id]["resource"]>>>}Pages`]: (
    body: FocusedWalkBody<Id>,
    options?: WalkOptions,
  ) => Walk<WalkPage<SuccessData<Id>, FocusedItem<Id>>>;
};

/** The options of a walk: the request options of its calls, where it starts and its limits. */
export type WalkOptions = RequestOptions & WalkLimits;
/** The options of `walkPosts` and `walkPages`: a walk's, plus `contentType` on videosite. */
export type PostsWalkOptions<P extends Platform> = WalkOptions & Omit<PostsOptions<P>, "cursor" | keyof RequestOptions>;
/** A page of a creator's posts, as `walkPages` yields it. */
export type PostsPage<P extends Platform> = WalkPage<PostsData<P>, ListedPost<P>>;

/** The options of `newPosts`: a posts call's, and the posts already stored (ids, or `postKey`s). */
export type NewPostsOptions<P extends Platform> = Omit<PostsOptions<P>, "cursor"> & { seen: { has(key: string): boolean } };
