import type { ScraperMeta } from "./meta.js";
import type { OperationId } from "./rules.js";
import type { components, operations } from "./generated/scraper.types.js";

// Public types, derived from the generated description types so that each platform gets its own shapes.

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

/** What every convenience method resolves to. */
export interface ScraperResult<Data> {
  data: Data;
  meta: ScraperMeta;
}

/** Per-request options, on every method. */
export interface RequestOptions {
  signal?: AbortSignal | undefined;
  /** Overrides the client's and the description's timeout for this call. */
  timeoutMs?: number | undefined;
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
type Operations = typeof import("./generated/scraper.operations.js").operations;
type FocusedId<P extends Platform> = {
  [Id in OperationId]: Operations[Id]["tag"] extends `Focused: ${P}` ? Id : never;
}[OperationId];

/** A focused operation's method: the body in the platform's own field names, optional where the description allows. */
export type FocusedMethod<Id extends OperationId> = Operations[Id]["requestBodyRequired"] extends true
  ? (body: RequestBody<Id>, options?: RequestOptions) => Promise<ScraperResult<SuccessData<Id>>>
  : (body?: RequestBody<Id>, options?: RequestOptions) => Promise<ScraperResult<SuccessData<Id>>>;

/** The focused operations of a platform, named after their path (`search-suggestions` → `searchSuggestions`). */
export type FocusedClient<P extends Platform> = {
  [Id in FocusedId<P> as CamelCase<NonNullable<Operations[Id]["resource"]>>]: FocusedMethod<Id>;
};
