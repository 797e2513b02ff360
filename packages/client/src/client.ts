import { outgoingFrom, responseFrom } from "@content-scraper/runtime";
import createClient, { type Client } from "openapi-fetch";
import { ScraperInputError, ScraperResponseError } from "./errors.js";
import { apiError, type Exchange, type ExchangeConfig, type ExchangeOptions, exchange, scraperSendConfig } from "./exchange.js";
import type { paths } from "./generated/scraper.types.js";
import { envelopeProblem, type SuccessEnvelope, successMeta } from "./meta.js";
import { checkNumber, type ResponseValidator, resolveOptions, type ScraperClientOptions } from "./options.js";
import { TokenBucket } from "./rate-limiter.js";
import { focusedOperations, isOperationId, type OperationId, operation, platformsWith } from "./rules.js";
import type {
  AudienceData,
  AudiencePlatform,
  AudienceRequest,
  FocusedClient,
  ListedPost,
  Platform,
  PostData,
  PostOptions,
  PostsData,
  PostsOptions,
  ProfileData,
  RequestOptions,
  ScraperResult,
  SuccessData,
} from "./types.js";
import { unseen, type WalkOptions, walk } from "./walk.js";

/**
 * The scraper client. Convenience methods return `{ data, meta }` and throw typed errors; `api` is the typed
 * openapi-fetch client for everything else. Both share the key, the pacing, the timeouts and the retry rules.
 */
export class ScraperClient {
  /** The typed openapi-fetch client, with the same auth, pacing, timeouts and retries. */
  readonly api: Client<paths>;
  /** Focused `shortvideo` operations, in the platform's own field names. */
  readonly shortvideo: FocusedClient<"shortvideo">;
  readonly baseUrl: string;
  // Private fields: neither util.inspect nor JSON.stringify can reach the key.
  readonly #config: ExchangeConfig;
  readonly #validateResponses: ResponseValidator | undefined;

  constructor(options: ScraperClientOptions = {}) {
    const resolved = resolveOptions(options);
    this.baseUrl = resolved.baseUrl;
    this.#validateResponses = resolved.validateResponses;
    const bucket = resolved.rateLimit ? new TokenBucket(resolved.rateLimit.requestsPerMinute, resolved.rateLimit.burstSeconds) : null;
    this.#config = { apiKey: resolved.apiKey, baseUrl: resolved.baseUrl, timeoutMs: resolved.timeoutMs, send: scraperSendConfig(resolved, bucket) };
    this.api = createClient<paths>({
      baseUrl: resolved.baseUrl,
      fetch: async (request) => {
        const result = await exchange(this.#config, await outgoingFrom(request), { signal: request.signal });
        // The same checks as the convenience methods: a documented success must be the envelope.
        if (result.response.ok && result.rules) await this.#accepted(result);
        else this.#checked(result);
        // openapi-fetch reads the body itself; hand it a fresh response over the bytes already read.
        return responseFrom(result);
      },
    });
    this.shortvideo = this.#focused("shortvideo");
  }

  /** A creator's profile. */
  async profile<P extends Platform>(platform: P, username: string, options?: RequestOptions): Promise<ScraperResult<ProfileData<P>>> {
    return this.#call(this.#operationId(platform, "Profile"), { username }, options);
  }

  /** One page of a creator's posts; pass the previous page's `next_cursor` as `cursor`. */
  async posts<P extends Platform>(platform: P, username: string, options: PostsOptions<P> = {} as PostsOptions<P>): Promise<ScraperResult<PostsData<P>>> {
    const { cursor, contentType } = options as { cursor?: string; contentType?: string };
    return this.#call(this.#operationId(platform, "Posts"), { username, cursor, contentType }, options);
  }

  /** One post by URL, with its transcript and a comment sample where requested and supported. */
  async post<P extends Platform>(platform: P, url: string, options: PostOptions = {}): Promise<ScraperResult<PostData<P>>> {
    const body = { url, include_transcript: options.includeTranscript, include_comments: options.includeComments };
    return this.#call(this.#operationId(platform, "Post"), body, options);
  }

  /**
   * A creator's audience by country (25 credits). v1.3.0 does not document this request's fields: a string is
   * sent as `{ username }`, by analogy with the profile request; pass an object to send a body of your own.
   */
  async audience<P extends AudiencePlatform>(platform: P, creator: string | AudienceRequest<P>, options?: RequestOptions): Promise<ScraperResult<AudienceData<P>>> {
    const body = typeof creator === "string" ? { username: creator } : creator;
    return this.#call(this.#operationId(platform, "Audience"), body, options);
  }

  /** Every post of a creator's catalog, once each, following `next_cursor` within `maxPages` and `maxCredits`. */
  walkPosts<P extends Platform>(platform: P, username: string, options: WalkOptions<P> = {} as WalkOptions<P>): AsyncGenerator<ListedPost<P>> {
    this.#operationId(platform, "Posts");
    checkNumber("maxPages", options.maxPages, Number.POSITIVE_INFINITY, { integer: options.maxPages !== undefined });
    checkNumber("maxCredits", options.maxCredits, Number.POSITIVE_INFINITY);
    const page = (cursor: string | undefined) => this.posts(platform, username, { ...options, cursor } as PostsOptions<P>);
    return walk(platform, page, options);
  }

  /** Polls page one and yields the posts not in `seen` (post ids or `postKey`s): new posts appear at its front. */
  newPosts<P extends Platform>(
    platform: P,
    username: string,
    options: Omit<PostsOptions<P>, "cursor"> & { seen: { has(key: string): boolean } },
  ): AsyncGenerator<ListedPost<P>> {
    this.#operationId(platform, "Posts");
    if (typeof options?.seen?.has !== "function") throw new ScraperInputError("seen", "seen must be a Set (or anything with has()) of post ids.");
    const { seen, ...rest } = options;
    return unseen(platform, (cursor) => this.posts(platform, username, { ...rest, cursor } as unknown as PostsOptions<P>), seen);
  }

  toJSON(): { baseUrl: string } {
    return { baseUrl: this.baseUrl };
  }

  #operationId(platform: string, resource: string): OperationId {
    const id = `${platform}${resource}`;
    if (isOperationId(id)) return id;
    const platforms = platformsWith(resource).join(", ");
    throw new ScraperInputError("platform", `platform "${String(platform)}" has no ${resource.toLowerCase()} operation; expected one of ${platforms}.`);
  }

  #focused<P extends Platform>(platform: P): FocusedClient<P> {
    const methods: Record<string, unknown> = {};
    for (const rules of focusedOperations(platform)) {
      const name = rules.resource.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
      methods[name] = (body?: unknown, options?: RequestOptions) => {
        if (body === undefined && rules.requestBodyRequired) throw new ScraperInputError("body", `${rules.operationId} needs a request body.`);
        return this.#call(rules.operationId, body, options);
      };
    }
    return Object.freeze(methods) as FocusedClient<P>;
  }

  async #call<Id extends OperationId, Data = SuccessData<Id>>(id: Id, body: unknown, options: ExchangeOptions = {}): Promise<ScraperResult<Data>> {
    checkNumber("timeoutMs", options.timeoutMs, 0, { positive: true });
    const rules = operation(id);
    const outgoing = {
      url: `${this.baseUrl}${rules.path}`,
      method: rules.method,
      ...(body === undefined ? {} : { headers: jsonHeaders, body: JSON.stringify(body) }),
    };
    const result = await exchange(this.#config, outgoing, options);
    if (!result.response.ok) {
      this.#checked(result);
      throw apiError(result);
    }
    const envelope = await this.#accepted(result);
    return { data: envelope.data as Data, meta: successMeta(envelope, result.response.headers) };
  }

  /**
   * A success's body: JSON, the description's schema with `validateResponses`, and in any case the success envelope
   * (an object with `data`, `meta`, `request_id`, `upstream_calls`), else a `ScraperResponseError` naming the operation.
   */
  async #accepted(result: Exchange): Promise<SuccessEnvelope> {
    const parsed = parseJson(result);
    this.#checked(result, parsed);
    const problem = envelopeProblem(parsed);
    if (problem === undefined) return parsed as SuccessEnvelope;
    const operationId = result.rules?.operationId ?? "request";
    throw new ScraperResponseError(`${operationId} answered ${result.response.status} with a body that is not the success envelope: ${problem.message}`, operationId, result.response.status, [
      problem,
    ]);
  }

  /** With `validateResponses`, a body that drifts from the description throws, naming the path. */
  #checked(result: Exchange, parsed?: unknown): void {
    const validate = this.#validateResponses;
    if (!validate || !result.rules) return;
    const contentType = result.response.headers.get("content-type") ?? "";
    if (!contentType.includes("json")) return;
    const { operationId } = result.rules;
    const outcome = validate(operationId, result.response.status, parsed ?? parseJson(result));
    if (outcome.valid) return;
    const problems = outcome.errors ?? [];
    const first = problems[0];
    throw new ScraperResponseError(
      `${operationId} answered ${result.response.status} with a body that does not match the description${first ? `: ${first.message}` : ""}`,
      operationId,
      result.response.status,
      problems,
    );
  }
}

const jsonHeaders = { "content-type": "application/json" };

function parseJson({ rules, response, text }: Exchange): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const operationId = rules?.operationId ?? "request";
    throw new ScraperResponseError(
      `${operationId} answered ${response.status} with a body that is not valid JSON (${text.length} bytes; truncated?)`,
      operationId,
      response.status,
    );
  }
}

/** Creates a scraper client. Throws `ScraperInputError` naming the option when one is unusable. */
export function createScraperClient(options?: ScraperClientOptions): ScraperClient {
  return new ScraperClient(options);
}
