// Every client of the SDK, as the hostile cases drive it: one call each, through the door a user takes. Plain
// JavaScript, so that the memory cases' child processes (plain Node) drive exactly the same calls as the tests.
import { scraperApi } from "@content-scraper/client/api";
import { createScraperClient, ScraperApiError, ScraperError, ScraperRedirectError, ScraperResponseError, ScraperResponseTooLargeError, ScraperTimeoutError } from "@content-scraper/client";
import { ConnectApiError, ConnectError, ConnectRedirectError, ConnectResponseError, ConnectResponseTooLargeError, ConnectTimeoutError, createConnectClient } from "@content-scraper/connect";
import {
  createLegacyClient,
  createPlatformClient,
  LegacyApiError,
  OAuthProtocolError,
  OAuthValidationError,
  PlatformApiError,
  PlatformError,
  PlatformRedirectError,
  PlatformResponseError,
  PlatformResponseTooLargeError,
  PlatformTimeoutError,
} from "@content-scraper/platform";
import { clientCredentials, OAuthServer } from "@content-scraper/platform/oauth";

/**
 * The limits a case opens a client with, and what it watches the client through (a logger, and hooks where the client
 * takes them); the rest are the client's defaults.
 * @typedef {{ timeoutMs?: number, maxRetryWaitMs?: number, maxResponseBytes?: number, logger?: object, hooks?: object }} Limits
 */

/**
 * What a call came to when the server answered: the status, and for an error what the client's typed error says; for
 * a success, its data and the meta the client adds (where its door returns one). Errors of the way (redirects, bodies,
 * timeouts, malformed answers) are thrown as they are.
 * @typedef {{ status: number, data?: unknown, meta?: unknown, retryable?: boolean, retryAfterMs?: number, error?: Error }} Outcome
 */

/**
 * @typedef {new (...args: any[]) => Error} ErrorClass
 * @typedef {object} Subject
 * @property {string} name
 * @property {string} basePath where the client's requests go on the server
 * @property {string} secret the credential: it must never reach another origin nor appear in an error
 * @property {string} publicPrefix its documented public prefix (`scrape_live_`), "" when it is random throughout
 * @property {string} secretHeader the request header that carries it
 * @property {unknown} success a success answer in the surface's shape
 * @property {(status: number) => unknown} errorBody an error answer in the surface's shape
 * @property {ErrorClass} family the base class of every error the client throws
 * @property {{ redirect: ErrorClass, tooLarge: ErrorClass, timeout: ErrorClass, response: ErrorClass }} errors
 * @property {boolean} checksShape whether a JSON success of the wrong shape (`null`, an array …) is an error; false where
 *   the reference does not show the success body, which is then returned as it came
 * @property {boolean} reportsRetryAfter whether the outcome of an error answer carries `retryable` and `retryAfterMs`
 *   (the typed errors do; the `api` doors resolve `{ error, response }`)
 * @property {boolean} retriesWithoutRetryAfter whether a 429 without a readable `Retry-After` is retried (the scraper's
 *   backoff) or returned at once (the surfaces whose one rule is "wait exactly Retry-After")
 * @property {(origin: string, limits?: Limits) => () => Promise<Outcome>} open a client on `origin`, and its call
 * @property {(origin: string) => string} base where a client on `origin` is pointed: its base URL (the issuer for the
 *   OAuth helpers)
 * @property {(base: string, secret: string, extra?: Record<string, unknown>) => () => Promise<Outcome>} make a client on
 *   `base` (its base URL; the issuer for the OAuth helpers) with `secret` as its credential and `extra` options, and its
 *   call: the construction-time cases give it what it must refuse
 * @property {((origin: string, path: string) => Promise<unknown>) | undefined} rawPath a call of the client's own on a raw
 *   path, where it takes one
 * @property {((origin: string, headers: Record<string, string>) => Promise<unknown>) | undefined} withHeaders a call with
 *   the caller's own headers, where the client takes them
 */

// Random parts of 24 characters or more, as real credentials have: each half of one is a credential's worth.
export const secrets = {
  scraper: "scrape_live_h0stile_SecretKey_7c1e0f4a9b",
  company: "company_h0stile_SecretKey_7c1e0f4a9b",
  connect: "sk_test_h0stile_SecretKey_7c1e0f4a9b",
  token: "eyJh0stile_SecretToken_7c1e0f4a9b2d",
  clientSecret: "secret_h0stile_ClientSecret_7c1e0f4a",
};

/** The options every client shares: short retry waits, so that retries do not hold the suite. Hooks are the scraper's alone. */
const common = (/** @type {Limits} */ { hooks: _hooks, ...limits }) => ({ timeoutMs: 10_000, ...limits, retry: { maxRetries: 2 } });

/**
 * A typed error answer as an outcome, the error itself kept for the checks that read it; anything else is rethrown.
 * @param {unknown} error
 * @param {ErrorClass} apiError
 * @returns {Outcome}
 */
function answered(error, apiError) {
  if (!(error instanceof apiError)) throw error;
  const { status, retryable, retryAfterMs } = /** @type {{ status: number, retryable: boolean, retryAfterMs: number | undefined }} */ (/** @type {unknown} */ (error));
  return retryAfterMs === undefined ? { status, retryable, error } : { status, retryable, retryAfterMs, error };
}

/**
 * An openapi-fetch result as an outcome.
 * @param {{ data?: unknown, error?: unknown, response: Response }} result
 * @returns {Outcome}
 */
const raw = ({ data, error, response }) => ({ status: response.status, data: error ?? data });


/**
 * @param {string} baseUrl
 * @param {Limits & Record<string, unknown>} limits
 * @param {string} apiKey
 */
const scraper = (baseUrl, limits, apiKey = secrets.scraper) =>
  createScraperClient({
    apiKey,
    baseUrl,
    ...common(limits),
    hooks: limits.hooks,
    retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 },
    rateLimit: { requestsPerMinute: 600 },
  });

/**
 * @param {string} baseUrl
 * @param {Limits & Record<string, unknown>} limits
 * @param {string} accessToken
 */
const platform = (baseUrl, limits, accessToken = secrets.token) => createPlatformClient({ baseUrl, accessToken, ...common(limits) });

/**
 * @param {string} baseUrl
 * @param {Limits & Record<string, unknown>} limits
 * @param {string} apiKey
 */
const legacy = (baseUrl, limits, apiKey = secrets.company) => createLegacyClient({ apiKey, baseUrl, ...common(limits) });

/**
 * @param {string} baseUrl
 * @param {Limits & Record<string, unknown>} limits
 * @param {string} apiKey
 */
const connect = (baseUrl, limits, apiKey = secrets.connect) => createConnectClient({ apiKey, baseUrl, ...common(limits) });

/**
 * @param {string} issuer
 * @param {Limits & Record<string, unknown>} limits
 */
const oauthServer = (issuer, limits) =>
  OAuthServer.fromMetadata({ issuer, token_endpoint: `${issuer}/api/oauth/v1/token` }, { allowInsecureRequests: true, ...common(limits) });

/**
 * What the doors of one surface share.
 * @typedef {Omit<Subject, "name" | "checksShape" | "reportsRetryAfter" | "open" | "base" | "make" | "rawPath" | "withHeaders">} Surface
 */

/** @type {Surface} */
const scraperSurface = {
  basePath: "/api/v1",
  secret: secrets.scraper,
  publicPrefix: "scrape_live_",
  secretHeader: "x-api-key",
  success: { data: { username: "creator", display_name: "Creator", follower_count: 1 }, request_id: "req_1", upstream_calls: 1, meta: { credits_charged: 1, credits_remaining: 9 } },
  errorBody: (status) => ({ error: status === 429 ? "SCRAPER_RATE_LIMITED" : "INTERNAL_ERROR", message: "refused", request_id: "req_e" }),
  family: ScraperError,
  errors: { redirect: ScraperRedirectError, tooLarge: ScraperResponseTooLargeError, timeout: ScraperTimeoutError, response: ScraperResponseError },
  retriesWithoutRetryAfter: true,
};

const platformErrors = { redirect: PlatformRedirectError, tooLarge: PlatformResponseTooLargeError, timeout: PlatformTimeoutError, response: PlatformResponseError };

/** @type {Surface} */
const platformSurface = {
  basePath: "/api/oauth/v1",
  secret: secrets.token,
  publicPrefix: "",
  secretHeader: "authorization",
  success: { data: [], nextCursor: null, hasMore: false },
  errorBody: (status) => ({ error: { code: status === 429 ? "rate_limited" : "internal", message: "refused", requestId: "req_e" } }),
  family: PlatformError,
  errors: platformErrors,
  retriesWithoutRetryAfter: false,
};

/** @type {Omit<Subject, "open">[]} */
const defined = [
  {
    ...scraperSurface,
    name: "scraper: profile()",
    checksShape: true,
    reportsRetryAfter: true,
    base: (origin) => `${origin}/api/v1`,
    make: (base, secret, extra = {}) => {
      const client = scraper(base, extra, secret);
      return () =>
        client.profile("shortvideo", "creator").then(
          ({ data, meta, response }) => ({ status: 200, data, meta: { ...meta, headers: Object.fromEntries(response.headers) } }),
          (error) => answered(error, ScraperApiError),
        );
    },
    rawPath: undefined,
    withHeaders: (origin, headers) => scraper(`${origin}/api/v1`, {}).profile("shortvideo", "creator", { headers }),
  },
  {
    ...scraperSurface,
    name: "scraper: api.POST",
    checksShape: true,
    reportsRetryAfter: false,
    base: (origin) => `${origin}/api/v1`,
    make: (base, secret, extra = {}) => {
      const client = scraper(base, extra, secret);
      return () => scraperApi(client).POST("/scrape/shortvideo/profile", { body: { username: "creator" } }).then(raw);
    },
    rawPath: undefined,
    withHeaders: undefined,
  },
  {
    ...platformSurface,
    name: "platform: listWebhookDeliveries()",
    checksShape: true,
    reportsRetryAfter: true,
    base: (origin) => `${origin}/api/oauth/v1`,
    make: (base, secret, extra = {}) => {
      const client = platform(base, extra, secret);
      return () =>
        client.listWebhookDeliveries("wh_1").then(
          ({ data, meta }) => ({ status: 200, data, meta: { ...meta, headers: Object.fromEntries(meta.headers) } }),
          (error) => answered(error, PlatformApiError),
        );
    },
    rawPath: (origin, path) => platform(`${origin}/api/oauth/v1`, {}).request("GET", path),
    withHeaders: undefined,
  },
  {
    ...platformSurface,
    name: "platform: api.GET",
    checksShape: true,
    reportsRetryAfter: false,
    base: (origin) => `${origin}/api/oauth/v1`,
    make: (base, secret, extra = {}) => {
      const client = platform(base, extra, secret);
      return () => client.api.GET("/webhooks/{id}/deliveries", { params: { path: { id: "wh_1" } } }).then(raw);
    },
    rawPath: undefined,
    withHeaders: undefined,
  },
  {
    name: "key-based platform: pages()",
    basePath: "/api/v1",
    secret: secrets.company,
    publicPrefix: "",
    secretHeader: "x-api-key",
    success: { data: [], page: 1, total: 0 },
    errorBody: () => ({ error: "Refused." }),
    family: PlatformError,
    errors: platformErrors,
    checksShape: true,
    reportsRetryAfter: true,
    retriesWithoutRetryAfter: false,
    base: (origin) => `${origin}/api/v1`,
    make: (base, secret, extra = {}) => {
      const client = legacy(base, extra, secret);
      return async () => {
        try {
          const items = [];
          for await (const item of client.pages("/leads")) items.push(item);
          return { status: 200, data: items };
        } catch (error) {
          return answered(error, LegacyApiError);
        }
      };
    },
    rawPath: async (origin, path) => {
      for await (const _item of legacy(`${origin}/api/v1`, {}).pages(path));
    },
    withHeaders: undefined,
  },
  {
    name: "connect: request()",
    basePath: "/api/embed",
    secret: secrets.connect,
    publicPrefix: "sk_test_",
    secretHeader: "x-api-key",
    success: { id: "acct_1" },
    errorBody: () => ({ error: "refused" }),
    family: ConnectError,
    errors: { redirect: ConnectRedirectError, tooLarge: ConnectResponseTooLargeError, timeout: ConnectTimeoutError, response: ConnectResponseError },
    checksShape: false,
    reportsRetryAfter: true,
    retriesWithoutRetryAfter: false,
    base: (origin) => `${origin}/api/embed`,
    make: (base, secret, extra = {}) => {
      const client = connect(base, extra, secret);
      return () =>
        client.request("GET", "/accounts").then(
          ({ meta, data }) => ({ status: meta.status, data, meta: { ...meta, headers: Object.fromEntries(meta.headers) } }),
          (error) => answered(error, ConnectApiError),
        );
    },
    rawPath: (origin, path) => connect(`${origin}/api/embed`, {}).request("GET", path),
    withHeaders: (origin, headers) => connect(`${origin}/api/embed`, {}).request("GET", "/accounts", { headers }),
  },
  {
    name: "OAuth helpers: clientCredentials()",
    basePath: "/api/oauth/v1",
    secret: secrets.clientSecret,
    publicPrefix: "",
    secretHeader: "authorization",
    success: { access_token: "at_1", token_type: "Bearer", expires_in: 3600 },
    errorBody: (status) => ({ error: status === 429 ? "temporarily_unavailable" : "server_error", error_description: "refused" }),
    family: PlatformError,
    errors: { ...platformErrors, response: OAuthValidationError },
    checksShape: true,
    reportsRetryAfter: true,
    retriesWithoutRetryAfter: false,
    base: (origin) => origin,
    make: (base, secret, extra = {}) => {
      const server = oauthServer(base, extra);
      return () =>
        clientCredentials({ server, clientId: "client_1", clientSecret: secret }).then(
          (tokens) => ({ status: 200, data: tokens }),
          (error) => answered(error, OAuthProtocolError),
        );
    },
    rawPath: undefined,
    withHeaders: undefined,
  },
];

/** @type {Subject[]} */
export const subjects = defined.map((subject) => ({ ...subject, open: (origin, limits = {}) => subject.make(subject.base(origin), subject.secret, limits) }));
