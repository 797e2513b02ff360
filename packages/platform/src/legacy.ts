import {
  type Answer,
  bodyExcerpt,
  buildUrl,
  checkApiKey,
  checkBackendOnly,
  isCount,
  jsonOutgoing,
  outgoingFrom,
  parseJson,
  type Query,
  resolveTransport,
  Redactor,
  responseFrom,
  retryAfterMs,
  successJson,
  type TransportOptions,
} from "@content-scraper/runtime";
import createClient, { type Client } from "openapi-fetch";
import { LegacyApiError, LegacySubscriptionRequiredError, PlatformInputError, PlatformResponseError } from "./errors.js";
import { apiKeys, type OperationId, operations } from "./generated/platform-legacy.operations.js";
import type { components, paths } from "./generated/platform-legacy.types.js";
import { type LegacyMeta, legacyRateLimit, type PlatformResult } from "./meta.js";
import { type PageList, pageItems } from "./paging.js";
import { inputError, notJson, type RequestOptions, type Sender, sender, transportSend } from "./transport.js";

export interface LegacyClientOptions extends TransportOptions {
  /** A company API key, created in the integration settings. Scraper (`scrape_live_`) and connect (`sk_live_`, `sk_test_`) keys are refused. */
  apiKey: string;
  /** Allow construction in a browser. The company key would be exposed to every visitor: don't. */
  dangerouslyAllowBrowser?: boolean | undefined;
}

/** A post's metrics history on the key-based API: an object whose fields v1.3.0 does not list. */
export type LegacyPostMetricsHistory = components["schemas"]["PostMetricsHistory"];

const scheme = apiKeys.CompanyApiKey;

/**
 * The typed error for a key-based answer that is not a 2xx: `{ error, code? }`, and 402 as its own class. A message
 * quotes the body only as parsed and redacted by `redactor` (`bodyExcerpt`).
 */
export function legacyApiError(answer: Pick<Answer, "response" | "text">, operation: string, redactor: Redactor = new Redactor()): LegacyApiError {
  const { response, text } = answer;
  const body = parseJson(text) as { error?: unknown; code?: unknown } | undefined;
  const excerpt = bodyExcerpt(text, redactor);
  const fields = {
    operation,
    status: response.status,
    message:
      typeof body?.error === "string" ? body.error : `${operation} failed with HTTP ${response.status}${excerpt ? `: ${excerpt}` : " and an empty body"}`,
    code: typeof body?.code === "string" ? body.code : undefined,
    retryAfterMs: retryAfterMs(response.headers),
    rateLimit: legacyRateLimit(response.headers),
  };
  return response.status === 402 ? new LegacySubscriptionRequiredError(fields) : new LegacyApiError(fields);
}

/**
 * The key-based platform API (`/api/v1`).
 *
 * @deprecated The key-based platform API is deprecated and unmaintained: its contract is frozen and receives no new
 * features. New integrations use the OAuth platform API: `createPlatformClient` from `@content-scraper/platform`, with
 * the OAuth helpers of `@content-scraper/platform/oauth`.
 */
export class LegacyClient {
  /** The typed openapi-fetch client over the one operation v1.3.0 documents, with the same key and Retry-After handling. */
  readonly api: Client<paths>;
  readonly baseUrl: string;
  // Private fields: neither util.inspect nor JSON.stringify can reach the key.
  readonly #sender: Sender;
  readonly #apiKey: string;

  constructor(options: LegacyClientOptions) {
    const transport = resolveTransport(options, "https://<host>/api/v1", inputError);
    checkBackendOnly("key-based platform client", "your company key", options.dangerouslyAllowBrowser, inputError);
    this.#apiKey = checkApiKey(
      options.apiKey,
      { surface: "key-based platform API", prefixes: [], rejectedKeyPrefixes: scheme.rejectedKeyPrefixes },
      inputError,
    ).key;
    this.#sender = sender(transport, "platform-legacy", new Redactor([this.#apiKey]));
    this.baseUrl = transport.baseUrl;
    this.api = createClient<paths>({
      baseUrl: transport.baseUrl,
      fetch: (request) =>
        this.#sender.redactor.redacting(async () => {
          const name = `${request.method} ${new URL(request.url).pathname}`;
          const answer = await this.#send(await outgoingFrom(request), name, { signal: request.signal });
          if (answer.response.ok) successJson(answer.text, () => notJson(name, answer));
          return responseFrom(answer.response.ok ? answer : { ...answer, text: this.#sender.redactor.text(answer.text) });
        }),
    });
  }

  /**
   * A post's metrics history (`days`, `limit` ≤ 500). Its shape is not documented in v1.3.0.
   * @deprecated Use `PlatformClient.getPostMetricsHistory` of the OAuth platform API.
   */
  getPostMetricsHistory(
    id: string,
    options: RequestOptions & { days?: unknown; limit?: number | undefined } = {},
  ): Promise<PlatformResult<LegacyPostMetricsHistory | undefined, LegacyMeta>> {
    const rules = operations["getPostMetricsHistory" satisfies OperationId];
    return this.request(rules.method, rules.path, {
      ...options,
      pathParams: { id },
      query: { days: options.days as Query[string], limit: options.limit },
      name: rules.operationId,
    }) as Promise<PlatformResult<LegacyPostMetricsHistory | undefined, LegacyMeta>>;
  }

  /**
   * Any call of the 24 operations, 23 of which v1.3.0 does not document: the key, Retry-After on a 429 when the
   * service sends one, and `LegacyApiError` for anything but a 2xx.
   * @deprecated Use the OAuth platform API.
   */
  async request<Data = unknown>(
    method: string,
    path: string,
    init: RequestOptions & { pathParams?: Record<string, string>; query?: Query; body?: unknown; name?: string } = {},
  ): Promise<PlatformResult<Data | undefined, LegacyMeta>> {
    if (typeof path !== "string") throw inputError("path", "path must be a string relative to baseUrl.");
    for (const [name, value] of Object.entries(init.pathParams ?? {})) {
      if (typeof value !== "string" || value === "") throw new PlatformInputError(name, `${name} must be a non-empty string.`);
    }
    const url = buildUrl(this.baseUrl, path, init.pathParams, init.query, inputError);
    const name = init.name ?? `${method.toUpperCase()} ${path}`;
    return this.#sender.redactor.redacting(async () => {
      const answer = await this.#send(jsonOutgoing(method.toUpperCase(), url, init.body), name, init);
      if (!answer.response.ok) throw legacyApiError(answer, name, this.#sender.redactor);
      const data = successJson(answer.text, () => notJson(name, answer));
      // Read from redacted headers; `data` is returned as the service sent it (redacting every body would cost every call).
      const rateLimit = legacyRateLimit(this.#sender.redactor.headers(answer.response.headers));
      return { data: data as Data | undefined, meta: { status: answer.response.status, attempts: answer.attempts, rateLimit } };
    });
  }

  /**
   * Every item of a key-based list endpoint (`GET path?page=N&limit=L`), page after page, until a page is empty or
   * `page × limit ≥ total`. Without `limit` none is sent and the service's default page size applies.
   * @deprecated Use the OAuth platform API's cursor lists.
   */
  pages<Item = unknown>(path: string, options: RequestOptions & { limit?: number | undefined; query?: Query; pathParams?: Record<string, string> } = {}): AsyncGenerator<Item> {
    const { limit } = options;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new PlatformInputError("limit", "limit must be a positive integer.");
    return pageItems<Item>(async (page) => {
      const { data } = await this.request<PageList<Item>>("GET", path, { ...options, query: { ...options.query, page, limit } });
      if (typeof data !== "object" || data === null || !Array.isArray(data.data) || !isCount(data.total)) {
        throw new PlatformResponseError(`GET ${path} answered with a body that is not a page list`, `GET ${path}`, 200, undefined);
      }
      return data;
    }, limit);
  }

  toJSON(): { baseUrl: string } {
    return { baseUrl: this.baseUrl };
  }

  #send(outgoing: ReturnType<typeof jsonOutgoing>, name: string, options: RequestOptions): Promise<Answer> {
    return transportSend(this.#sender, outgoing, { name, signal: options.signal, timeoutMs: options.timeoutMs, authHeaders: { [scheme.name]: this.#apiKey } });
  }
}

/**
 * Creates a client of the key-based platform API (`/api/v1`, a company key in `x-api-key`).
 *
 * @deprecated The key-based platform API is deprecated and unmaintained. Use `createPlatformClient` (OAuth 2.1) from
 * `@content-scraper/platform`.
 */
export function createLegacyClient(options: LegacyClientOptions): LegacyClient {
  return new LegacyClient(options);
}
