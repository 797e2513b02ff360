import {
  type Answer,
  bodyExcerpt,
  buildUrl,
  checkCredential,
  isObject,
  jsonOutgoing,
  optionalString,
  outgoingFrom,
  parseJson,
  type Query,
  Redactor,
  resolveTransport,
  responseFrom,
  retryAfterMs,
  successJson,
  type TransportOptions,
} from "@content-scraper/runtime";
import createClient, { type Client } from "openapi-fetch";
import { bearerChallenge } from "./challenge.js";
import { PlatformApiError, PlatformInputError, PlatformResponseError, SubscriptionRequiredError } from "./errors.js";
import { type ErrorCode, errorCodes, type OperationId, operations } from "./generated/platform.operations.js";
import type { paths } from "./generated/platform.types.js";
import { idempotencyKeyFor } from "./idempotency.js";
import type { PlatformMeta, PlatformResult } from "./meta.js";
import { cursorItems, isCursorPage } from "./paging.js";
import { inputError, notJson, operationMatcher, type RequestOptions, type Sender, sender, transportSend } from "./transport.js";
import type { ListOptions, MetricsHistoryOptions, PostMetricsHistory, RequestBody, SuccessBody, WebhookDelivery, WebhookDeliveryPage, WriteOptions } from "./types.js";

export interface PlatformClientOptions extends TransportOptions {
  /** A fixed OAuth 2.1 access token. It expires after 3600 s: for longer-lived clients pass `getAccessToken`. */
  accessToken?: string | undefined;
  /** Called before every request (each retry included), so it can hand out a refreshed token. */
  getAccessToken?: (() => string | Promise<string>) | undefined;
}

type Rules = (typeof operations)[OperationId];

const matchOperation = operationMatcher(operations as Readonly<Record<string, Rules>>);
const isErrorCode = (value: unknown): value is ErrorCode => typeof value === "string" && Object.hasOwn(errorCodes, value);

/**
 * The base an operation resolves against: `baseUrl`, or for an operation with its own server (the discovery document,
 * at `https://{host}`) that server's path on the base URL's host.
 */
function baseFor(baseUrl: string, rules: Rules | undefined): string {
  if (rules === undefined || !("server" in rules)) return baseUrl;
  const serverPath = new URL(rules.server.replace(/\{[^}]*\}/g, "host"), baseUrl).pathname.replace(/\/$/, "");
  return new URL(baseUrl).origin + serverPath;
}

/**
 * The typed error for an answer that is not a 2xx: `{ error: { code, message, requestId, meta? } }`, the challenge,
 * Retry-After. A message quotes the body only as parsed and redacted by `redactor` (`bodyExcerpt`).
 */
export function platformApiError(
  answer: Pick<Answer, "response" | "text">,
  operation: string,
  idempotencyKey?: string,
  redactor: Redactor = new Redactor(),
): PlatformApiError {
  const { response, text } = answer;
  const body = parseJson(text);
  const error = isObject(body) && isObject(body.error) ? body.error : undefined;
  const code = isErrorCode(error?.code) ? error.code : undefined;
  const excerpt = bodyExcerpt(text, redactor);
  const fields = {
    operation,
    status: response.status,
    code,
    message: optionalString(error?.message) ?? `${operation} failed with HTTP ${response.status}${excerpt ? `: ${excerpt}` : " and an empty body"}`,
    requestId: optionalString(error?.requestId),
    meta: isObject(error?.meta) ? error.meta : undefined,
    retryAfterMs: retryAfterMs(response.headers),
    challenge: bearerChallenge(response.headers.get("www-authenticate")),
    idempotencyKey,
  };
  return code === "subscription_required" ? new SubscriptionRequiredError(fields) : new PlatformApiError(fields);
}

/** The operations whose success body the description shows, with the check of its shape: its cursor lists. */
const shapes: Partial<Record<OperationId, { check: (data: unknown) => boolean; shape: string }>> = {
  listWebhookDeliveries: { check: isCursorPage, shape: "a cursor page" },
};

/**
 * A 2xx body of an operation whose success shape is shown must have it, through a method or `api` alike (with no
 * validator loaded): `null`, an array or a page without `data` is a `PlatformResponseError` naming the operation.
 */
function checkShape(rules: Rules | undefined, data: unknown, answer: Pick<Answer, "response">, idempotencyKey: string | undefined): unknown {
  const expected = rules && shapes[rules.operationId as OperationId];
  if (expected && !expected.check(data)) {
    const name = rules.operationId;
    throw new PlatformResponseError(`${name} answered ${answer.response.status} with a body that is not ${expected.shape}`, name, answer.response.status, idempotencyKey);
  }
  return data;
}

interface Exchange {
  method: string;
  path: string;
  rules: Rules | undefined;
  pathParams?: Record<string, string> | undefined;
  query?: Query | undefined;
  body?: unknown;
  options?: (WriteOptions & RequestOptions) | undefined;
}

/**
 * The OAuth platform API (`/api/oauth/v1`) client. Convenience methods return `{ data, meta }` and throw typed
 * errors; `api` is the typed openapi-fetch client for the rest. Both send `Authorization: Bearer <token>`, an
 * `Idempotency-Key` on every write of a resource endpoint (the same one on each retry), and wait exactly `Retry-After`
 * on a 429.
 */
export class PlatformClient {
  /** The typed openapi-fetch client, with the same token, idempotency keys and Retry-After handling. */
  readonly api: Client<paths>;
  readonly baseUrl: string;
  // Private fields: neither util.inspect nor JSON.stringify can reach the token.
  readonly #sender: Sender;
  readonly #accessToken: () => Promise<string>;

  constructor(options: PlatformClientOptions) {
    const transport = resolveTransport(options, "https://<host>/api/oauth/v1", inputError);
    const redactor = new Redactor();
    this.#sender = sender(transport, "platform", redactor);
    this.baseUrl = transport.baseUrl;
    this.#accessToken = tokenSource(options, redactor);
    this.api = createClient<paths>({
      baseUrl: transport.baseUrl,
      fetch: (request) =>
        this.#sender.redactor.redacting(async () => {
          const url = new URL(request.url);
          const path = url.href.startsWith(`${this.baseUrl}/`) ? url.pathname.slice(new URL(this.baseUrl).pathname.length) : url.pathname;
          const rules = matchOperation(request.method, path);
          const outgoing = await outgoingFrom(request);
          // openapi-fetch puts every path under baseUrl; an operation with its own server goes there instead.
          if (rules && "server" in rules) outgoing.url = `${baseFor(this.baseUrl, rules)}${path}${url.search}`;
          const given = request.headers.get("idempotency-key") ?? undefined;
          const { answer, idempotencyKey, name } = await this.#send(outgoing, rules, given, request.method, path, { signal: request.signal });
          if (answer.response.ok) checkShape(rules, successJson(answer.text, () => notJson(name, answer, idempotencyKey)), answer, idempotencyKey);
          return responseFrom(answer.response.ok ? answer : { ...answer, text: this.#sender.redactor.text(answer.text) });
        }),
    });
  }

  /** Asks for a test delivery to a webhook subscription. */
  testWebhook(id: string, body?: RequestBody<"testWebhook">, options?: WriteOptions): Promise<PlatformResult<SuccessBody<"testWebhook"> | undefined>> {
    return this.#operation("testWebhook", { id }, body, options);
  }

  /** One page of a webhook's deliveries; pass the previous page's `nextCursor` as `cursor`. */
  async listWebhookDeliveries(id: string, options: ListOptions = {}): Promise<PlatformResult<WebhookDeliveryPage>> {
    const result = await this.#call({
      ...this.#resolve("listWebhookDeliveries"),
      pathParams: { id },
      query: { cursor: options.cursor, limit: options.limit },
      options,
    });
    return { data: result.data as WebhookDeliveryPage, meta: result.meta };
  }

  /** Every delivery of a webhook, following `nextCursor` until `hasMore` is false. */
  webhookDeliveries(id: string, options: Omit<ListOptions, "cursor"> = {}): AsyncGenerator<WebhookDelivery> {
    return cursorItems(async (cursor) => (await this.listWebhookDeliveries(id, { ...options, cursor })).data);
  }

  /** A post's metrics history (`days`, `limit` ≤ 500). Its shape is not documented in v1.3.0. */
  getPostMetricsHistory(id: string, options: MetricsHistoryOptions = {}): Promise<PlatformResult<PostMetricsHistory | undefined>> {
    return this.#call({
      ...this.#resolve("getPostMetricsHistory"),
      pathParams: { id },
      query: { days: options.days as Query[string], limit: options.limit },
      options,
    }) as Promise<PlatformResult<PostMetricsHistory | undefined>>;
  }

  /** Executes a payout. Money-moving; `Idempotency-Key` required (one is generated unless you pass `idempotencyKey`). */
  executePayout(body?: RequestBody<"executePayout">, options?: WriteOptions): Promise<PlatformResult<SuccessBody<"executePayout"> | undefined>> {
    return this.#operation("executePayout", {}, body, options);
  }

  /** Quick Pay. Money-moving; `Idempotency-Key` required (one is generated unless you pass `idempotencyKey`). */
  executeQuickPay(body?: RequestBody<"executeQuickPay">, options?: WriteOptions): Promise<PlatformResult<SuccessBody<"executeQuickPay"> | undefined>> {
    return this.#operation("executeQuickPay", {}, body, options);
  }

  /** Creates an invoice (`Idempotency-Key` strongly recommended: always sent). */
  createInvoice(body?: RequestBody<"createInvoice">, options?: WriteOptions): Promise<PlatformResult<SuccessBody<"createInvoice"> | undefined>> {
    return this.#operation("createInvoice", {}, body, options);
  }

  /** Sends an invoice. */
  sendInvoice(id: string, body?: RequestBody<"sendInvoice">, options?: WriteOptions): Promise<PlatformResult<SuccessBody<"sendInvoice"> | undefined>> {
    return this.#operation("sendInvoice", { id }, body, options);
  }

  /** Voids an invoice. */
  voidInvoice(id: string, body?: RequestBody<"voidInvoice">, options?: WriteOptions): Promise<PlatformResult<SuccessBody<"voidInvoice"> | undefined>> {
    return this.#operation("voidInvoice", { id }, body, options);
  }

  /** Writes a campaign's analytics history. `Idempotency-Key` required, 8 to 200 characters. */
  createCampaignAnalyticsHistory(
    id: string,
    body?: RequestBody<"createCampaignAnalyticsHistory">,
    options?: WriteOptions,
  ): Promise<PlatformResult<SuccessBody<"createCampaignAnalyticsHistory"> | undefined>> {
    return this.#operation("createCampaignAnalyticsHistory", { id }, body, options);
  }

  /**
   * Any call, for paths the description states without their methods (`/webhooks` CRUD) or does not list: the token,
   * an `Idempotency-Key` on `POST`/`PATCH`/`PUT`, Retry-After on 429, and `PlatformApiError` for anything but a 2xx.
   * `path` is relative to `baseUrl` (to the host's root for an operation the description serves there, such as
   * `/.well-known/oauth-authorization-server`) and may have `{name}` placeholders filled from `pathParams`.
   */
  request<Data = unknown>(
    method: string,
    path: string,
    init: WriteOptions & { pathParams?: Record<string, string>; query?: Query; body?: unknown } = {},
  ): Promise<PlatformResult<Data | undefined>> {
    const upper = String(method).toUpperCase();
    return this.#call({ method: upper, path, rules: matchOperation(upper, path), pathParams: init.pathParams, query: init.query, body: init.body, options: init }) as Promise<
      PlatformResult<Data | undefined>
    >;
  }

  toJSON(): { baseUrl: string } {
    return { baseUrl: this.baseUrl };
  }

  #resolve(id: OperationId): { method: string; path: string; rules: Rules } {
    const rules = operations[id];
    return { method: rules.method, path: rules.path, rules };
  }

  #operation<Data>(id: OperationId, pathParams: Record<string, string>, body: unknown, options?: WriteOptions): Promise<PlatformResult<Data | undefined>> {
    return this.#call({ ...this.#resolve(id), pathParams, body, options }) as Promise<PlatformResult<Data | undefined>>;
  }

  async #call(exchange: Exchange): Promise<PlatformResult<unknown>> {
    const { method, path, rules, options = {} } = exchange;
    if (typeof path !== "string") throw inputError("path", "path must be a string relative to baseUrl.");
    for (const [name, value] of Object.entries(exchange.pathParams ?? {})) {
      if (typeof value !== "string" || value === "") throw new PlatformInputError(name, `${name} must be a non-empty string.`);
    }
    const url = buildUrl(baseFor(this.baseUrl, rules), path, exchange.pathParams, exchange.query, inputError);
    return this.#sender.redactor.redacting(async () => {
      const { answer, idempotencyKey, name } = await this.#send(jsonOutgoing(method, url, exchange.body), rules, options.idempotencyKey, method, path, options);
      if (!answer.response.ok) throw platformApiError(answer, name, idempotencyKey, this.#sender.redactor);
      const data = checkShape(rules, successJson(answer.text, () => notJson(name, answer, idempotencyKey)), answer, idempotencyKey);
      // The headers are redacted; `data` is returned as the service sent it (redacting every body would cost every call).
      const meta: PlatformMeta = { status: answer.response.status, attempts: answer.attempts, idempotencyKey, headers: this.#sender.redactor.headers(answer.response.headers) };
      return { data, meta };
    });
  }

  /** The one way out: the key chosen once for the call, the token fetched for every attempt, the Retry-After loop. */
  async #send(
    outgoing: ReturnType<typeof jsonOutgoing>,
    rules: Rules | undefined,
    givenKey: string | undefined,
    method: string,
    path: string,
    options: RequestOptions,
  ): Promise<{ answer: Answer; idempotencyKey: string | undefined; name: string }> {
    const name = rules?.operationId ?? `${method.toUpperCase()} ${path}`;
    const idempotencyKey = idempotencyKeyFor(method, rules, givenKey);
    const given = outgoing.headers instanceof Headers ? Object.fromEntries(outgoing.headers) : (outgoing.headers ?? {});
    const headers: Record<string, string> = { ...given };
    for (const header of Object.keys(headers)) if (header.toLowerCase() === "idempotency-key") delete headers[header];
    if (idempotencyKey !== undefined) headers["idempotency-key"] = idempotencyKey;
    const anonymous = rules !== undefined && "security" in rules && (rules.security as readonly string[]).length === 0;
    const answer = await transportSend(this.#sender, { ...outgoing, headers }, {
      name,
      idempotencyKey,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      authHeaders: anonymous ? undefined : async () => ({ authorization: `Bearer ${await this.#accessToken()}` }),
    });
    return { answer, idempotencyKey, name };
  }
}

/**
 * Exactly one of `accessToken` and `getAccessToken`; the token never goes into a message, and `redactor` learns every
 * token handed out, so no error or log line can echo one.
 */
function tokenSource(options: PlatformClientOptions, redactor: Redactor): () => Promise<string> {
  const { accessToken, getAccessToken } = options;
  if (accessToken !== undefined && getAccessToken !== undefined) {
    throw inputError("accessToken", "pass either accessToken or getAccessToken, not both.");
  }
  if (getAccessToken !== undefined) {
    if (typeof getAccessToken !== "function") throw inputError("getAccessToken", "getAccessToken must be a function returning the access token.");
    return async () => {
      const token = await getAccessToken();
      if (typeof token !== "string" || token.trim() === "") {
        throw inputError("getAccessToken", "getAccessToken returned no access token (expected a non-empty string).");
      }
      redactor.add(token);
      return checkCredential("getAccessToken", token, inputError);
    };
  }
  if (typeof accessToken !== "string" || accessToken.trim() === "") {
    throw inputError("accessToken", "accessToken is missing: pass an OAuth 2.1 access token, or getAccessToken to supply one per request.");
  }
  redactor.add(checkCredential("accessToken", accessToken, inputError));
  return async () => accessToken;
}

/** Creates an OAuth platform API client. Throws `PlatformInputError` naming the option when one is unusable. */
export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  return new PlatformClient(options);
}
