import {
  type Answer,
  bodyExcerpt,
  buildUrl,
  checkApiKey,
  checkNumber,
  checkBackendOnly,
  describeConnectionFailure,
  jsonOutgoing,
  type Outgoing,
  outgoingFrom,
  parseJson,
  type Query,
  Redactor,
  resolveTransport,
  responseFrom,
  retryAfterMs,
  type SendConfig,
  type SendErrors,
  send,
  successJson,
  type TransportOptions,
  transportSendConfig,
} from "@content-scraper/runtime";
import createClient, { type Client } from "openapi-fetch";
import {
  ConnectAbortError,
  ConnectApiError,
  ConnectConnectionError,
  ConnectInputError,
  ConnectRedirectError,
  ConnectResponseError,
  ConnectResponseTooLargeError,
  ConnectTimeoutError,
} from "./errors.js";
import { apiKeys } from "./generated/connect.operations.js";
import type { paths } from "./generated/connect.types.js";

const scheme = apiKeys.ConnectApiKey;
type KeyEnvironments = typeof scheme.keyEnvironments;

/** Where a key's calls go, from its prefix: `sk_live_` → production, `sk_test_` → sandbox. */
export type Environment = KeyEnvironments[keyof KeyEnvironments];

export interface ConnectClientOptions extends TransportOptions {
  /** A connect key, `sk_live_…` (production) or `sk_test_…` (sandbox). A scraper key (`scrape_live_…`) is refused. */
  apiKey: string;
  /** The connect API base, `https://<host>/api/embed`: the same for both environments. */
  baseUrl: string;
  /** Allow construction in a browser. The secret key would be exposed to every visitor: don't. */
  dangerouslyAllowBrowser?: boolean | undefined;
}

/** One call of `request`: its path parameters, query, JSON body, headers, signal and timeout. */
export interface ConnectRequestInit {
  /** Values for `{name}` placeholders of the path. */
  pathParams?: Record<string, string> | undefined;
  query?: Query | undefined;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string> | undefined;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
}

/** What an answer says besides its body: the status, the attempts it took, the key's environment and the headers. */
export interface ConnectMeta {
  status: number;
  /** Requests sent: more than 1 after waiting out a 429's `Retry-After`. */
  attempts: number;
  environment: Environment;
  headers: Headers;
}

/** What `request` resolves to: the parsed JSON body and its `meta`. */
export interface ConnectResult<Data> {
  data: Data;
  meta: ConnectMeta;
}

const inputError = (field: string, message: string) => new ConnectInputError(field, message);

/** The connect client's errors for what happens on the way; none carries the key. */
const connectErrors: SendErrors = {
  timeout: (call, timeoutMs, inFlight) => new ConnectTimeoutError(call.name, timeoutMs, inFlight),
  connection: (call, cause, inFlight) => new ConnectConnectionError(describeConnectionFailure(call.name, inFlight), inFlight, { cause }),
  redirect: (call, refusal) => new ConnectRedirectError(call.name, refusal),
  tooLarge: (call, tooLarge, response) => new ConnectResponseTooLargeError(call.name, response.status, tooLarge),
  aborted: (call, reason, inFlight) => new ConnectAbortError(call.name, inFlight, undefined, { cause: reason }),
};

const notJson = (name: string, answer: Answer) =>
  new ConnectResponseError(`${name} answered ${answer.response.status} with a body that is not JSON`, name, answer.response.status);

/**
 * The connect API (`/api/embed`) client. v1.3.0 documents none of its operations, so besides the typed (and for now
 * empty) `api` it offers `request`, which sends the key, waits exactly `Retry-After` on a 429 and throws
 * `ConnectApiError` on any other error status.
 */
export class ConnectClient {
  /** The typed openapi-fetch client: the description has no paths yet, so it types none. */
  readonly api: Client<paths>;
  readonly baseUrl: string;
  /** Sandbox or production, from the key's prefix; the base URL is the same for both. */
  readonly environment: Environment;
  // Private fields: neither util.inspect nor JSON.stringify can reach the key.
  readonly #apiKey: string;
  readonly #redactor: Redactor;
  readonly #sendConfig: SendConfig;
  readonly #timeoutMs: number | undefined;

  constructor(options: ConnectClientOptions) {
    if (typeof options !== "object" || options === null) throw inputError("options", "options must be an object.");
    checkBackendOnly("connect client", "your secret key", options.dangerouslyAllowBrowser, inputError);
    const environments: Readonly<Record<string, Environment>> = scheme.keyEnvironments;
    const { key, prefix } = checkApiKey(
      options.apiKey,
      { surface: "connect", prefixes: Object.keys(environments), rejectedKeyPrefixes: scheme.rejectedKeyPrefixes },
      inputError,
    );
    this.#apiKey = key;
    this.#redactor = new Redactor([key]);
    this.environment = environments[prefix as string] as Environment;
    const transport = resolveTransport(options, "https://<host>/api/embed", inputError);
    this.baseUrl = transport.baseUrl;
    this.#timeoutMs = transport.timeoutMs;
    this.#sendConfig = transportSendConfig(transport, "connect", connectErrors, this.#redactor);
    this.api = createClient<paths>({
      baseUrl: this.baseUrl,
      fetch: (request) =>
        this.#redactor.redacting(async () => {
          const name = `${request.method} ${new URL(request.url).pathname}`;
          const answer = await this.#send(await outgoingFrom(request), name, request);
          if (answer.response.ok) successJson(answer.text, () => notJson(name, answer));
          return responseFrom(answer.response.ok ? answer : { ...answer, text: this.#redactor.text(answer.text) });
        }),
    });
  }

  /** Any call: `path` is relative to `baseUrl`; the JSON answer is `data` (`undefined` for an empty body). */
  async request<Data = unknown>(method: string, path: string, init: ConnectRequestInit = {}): Promise<ConnectResult<Data | undefined>> {
    if (typeof method !== "string" || method === "") throw inputError("method", "method must be an HTTP method.");
    if (typeof path !== "string") throw inputError("path", "path must be a string relative to baseUrl.");
    checkNumber("timeoutMs", init.timeoutMs, 0, { positive: true }, inputError);
    checkHeaders(init.headers);
    const url = buildUrl(this.baseUrl, path, init.pathParams, init.query, inputError);
    const name = `${method.toUpperCase()} ${path}`;
    return this.#redactor.redacting(async () => {
      const answer = await this.#send(jsonOutgoing(method.toUpperCase(), url, init.body, init.headers), name, init);
      if (!answer.response.ok) {
        const excerpt = bodyExcerpt(answer.text, this.#redactor);
        throw new ConnectApiError(
          `${name} failed with HTTP ${answer.response.status}${excerpt ? `: ${excerpt}` : " and an empty body"}`,
          name,
          answer.response.status,
          parseJson(answer.text),
          retryAfterMs(answer.response.headers),
        );
      }
      const body = successJson(answer.text, () => notJson(name, answer));
      // The headers are redacted; `data` is returned as the service sent it (redacting every body would cost every call).
      const headers = this.#redactor.headers(answer.response.headers);
      return { data: body as Data | undefined, meta: { status: answer.response.status, attempts: answer.attempts, environment: this.environment, headers } };
    });
  }

  toJSON(): { baseUrl: string; environment: Environment } {
    return { baseUrl: this.baseUrl, environment: this.environment };
  }

  #send(outgoing: Outgoing, name: string, options: { signal?: AbortSignal | undefined; timeoutMs?: number | undefined }): Promise<Answer> {
    return send(this.#sendConfig, outgoing, {
      name,
      timeoutMs: options.timeoutMs ?? this.#timeoutMs,
      signal: options.signal,
      authHeaders: { [scheme.name]: this.#apiKey },
      logDetails: { operation: name, environment: this.environment },
    });
  }
}

/** A call's own headers: strings, and never the key's header (the client sends its own key, once). */
function checkHeaders(headers: Record<string, string> | undefined): void {
  if (headers === undefined) return;
  if (typeof headers !== "object" || headers === null || Object.values(headers).some((value) => typeof value !== "string")) {
    throw inputError("headers", "headers must be an object of header names to string values.");
  }
  const credential = Object.keys(headers).find((name) => name.toLowerCase() === scheme.name.toLowerCase());
  if (credential) throw inputError(`headers.${credential}`, `headers must not carry ${scheme.name}: the client sends its own key (create a client for another key).`);
}

/** Creates a connect API client. Throws `ConnectInputError` naming the option when one is unusable (a scraper key, for one). */
export function createConnectClient(options: ConnectClientOptions): ConnectClient {
  return new ConnectClient(options);
}
