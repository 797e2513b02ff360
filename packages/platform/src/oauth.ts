// OAuth 2.1 helpers for the platform API, on oauth4webapi: discovery, Dynamic Client Registration, the authorization
// code flow with PKCE S256 and the `iss` check, refresh, client credentials and revocation. Tokens, client secrets
// and code verifiers are kept in private fields and exposed through accessors, so that neither JSON.stringify nor
// util.inspect nor an error nor a log line shows them.
import { checkCredential, Redactor, resolveTransport, responseFrom, retryAfterMs, type TransportOptions } from "@content-scraper/runtime";
import * as oauth from "oauth4webapi";
import { bearerChallenge } from "./challenge.js";
import { OAuthProtocolError, OAuthValidationError, PlatformError, PlatformInputError } from "./errors.js";
import { oauth as schemes } from "./generated/platform.operations.js";
import { inputError, type RequestOptions, type Sender, sender, transportSend } from "./transport.js";

const scheme = schemes.OAuth2;
/** The code-challenge methods the description allows: `S256` only. */
export const pkceMethods: readonly string[] = scheme.flows.authorizationCode.pkce.methods;
/** The sensitive scopes, which sandbox or test-mode grants cannot use. */
export const sensitiveScopes: readonly string[] = scheme.sensitiveScopes;
/** The scopes the description lists for the authorization code flow. */
export const scopes: readonly string[] = scheme.flows.authorizationCode.scopes;
/** The access token's documented lifetime: used when a token response has no `expires_in`. */
export const accessTokenLifetimeSeconds: number = scheme.accessToken.expiresInSeconds;

/** How the OAuth helpers reach the authorization server: the transport options, and whether `http:` is allowed. */
export interface OAuthOptions extends Omit<TransportOptions, "baseUrl"> {
  /**
   * oauth4webapi refuses `http:` endpoints. `true` lifts that, for local testing against a loopback server only: never
   * in production, where the tokens and the client secret would cross the network in clear.
   */
  allowInsecureRequests?: boolean | undefined;
}

interface Reach {
  sender: Sender;
  allowInsecureRequests: boolean;
}

// How each server is reached, out of sight of its public surface.
const reach = new WeakMap<OAuthServer, Reach>();

/** The authorization server, as discovered: its metadata and how to reach it. Pass it to every other helper. */
export class OAuthServer {
  readonly issuer: string;
  readonly metadata: Readonly<oauth.AuthorizationServer>;

  private constructor(metadata: oauth.AuthorizationServer) {
    this.issuer = metadata.issuer;
    this.metadata = Object.freeze({ ...metadata });
  }

  /**
   * A server from metadata you stored (from an earlier `discover`), without a request. Every endpoint must be on the
   * issuer's origin (the reference puts them all under `{oauth_base_url}` on the shared host): metadata naming another
   * origin would send it the client secret and the codes.
   */
  static fromMetadata(metadata: oauth.AuthorizationServer, options: OAuthOptions = {}): OAuthServer {
    if (typeof metadata?.issuer !== "string") throw inputError("metadata", "metadata must be authorization server metadata with an issuer.");
    if (!sameOrigin(metadata.issuer, metadata.issuer)) throw inputError("metadata.issuer", "metadata.issuer must be an absolute URL without a user or password.");
    const origin = checkHost("issuer", new URL(metadata.issuer).origin, options).href;
    const elsewhere = Object.entries(metadata).find(([name, value]) => name.endsWith("_endpoint") && !sameOrigin(value, origin));
    if (elsewhere) throw inputError(`metadata.${elsewhere[0]}`, `metadata.${elsewhere[0]} is not on the issuer's origin (${new URL(origin).origin}): refused, so that no secret leaves it.`);
    const server = new OAuthServer(metadata);
    reach.set(server, reachWith(origin, options));
    return server;
  }

  toJSON(): { issuer: string } {
    return { issuer: this.issuer };
  }
}

/** Whether `value` is a URL on `origin`, without a user or password (which would travel in every error). */
function sameOrigin(value: unknown, origin: string): boolean {
  try {
    const url = new URL(value as string);
    return typeof value === "string" && url.origin === new URL(origin).origin && !url.username && !url.password;
  } catch {
    return false;
  }
}

function reachWith(origin: string, options: OAuthOptions): Reach {
  const transport = resolveTransport({ ...options, baseUrl: origin, allowInsecureHttp: options.allowInsecureRequests }, "https://<host>", inputError);
  // Each helper redacts its own credentials at its door (`wrapped`); the sender's log lines carry none.
  return { sender: sender(transport, "oauth", new Redactor()), allowInsecureRequests: options.allowInsecureRequests === true };
}

function reachOf(server: OAuthServer): Reach {
  const found = server instanceof OAuthServer ? reach.get(server) : undefined;
  if (!found) throw inputError("server", "server must come from discover() or OAuthServer.fromMetadata().");
  return found;
}

/**
 * The options oauth4webapi's requests take: our pipeline (429 → Retry-After, timeouts, body limit, logger, and
 * redirects followed only on the endpoint's own origin, so a client secret never reaches another) and the http opt-in.
 */
function requestOptions({ sender: via, allowInsecureRequests }: Reach, name: string, options: RequestOptions) {
  return {
    signal: options.signal,
    [oauth.allowInsecureRequests]: allowInsecureRequests,
    [oauth.customFetch]: async (url: string, init: oauth.CustomFetchOptions<string, unknown>) => {
      const headers = { ...init.headers };
      const form = init.body instanceof URLSearchParams;
      if (form && !Object.keys(headers).some((header) => header.toLowerCase() === "content-type")) {
        headers["content-type"] = "application/x-www-form-urlencoded;charset=UTF-8";
      }
      // oauth4webapi sends forms (URLSearchParams) and, for registration, a JSON string.
      const body = init.body === undefined || init.body === null ? undefined : String(init.body);
      const answer = await transportSend(via, { url, method: init.method, headers, body }, { name, signal: options.signal, timeoutMs: options.timeoutMs });
      return responseFrom(answer);
    },
  };
}

/** An origin (`https://<host>`), refusing `http:` unless `allowInsecureRequests` is set; never puts a value into a message. */
function checkHost(option: string, host: string, options: OAuthOptions): URL {
  let url: URL;
  try {
    url = new URL(host);
  } catch {
    throw inputError(option, `${option} is not an absolute URL (expected the shared host, e.g. https://<your host>).`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw inputError(option, `${option} must be an https URL, not ${url.protocol}`);
  if (url.protocol === "http:" && options.allowInsecureRequests !== true) {
    throw inputError(
      "allowInsecureRequests",
      `${option} is an http: URL: OAuth needs https. Pass allowInsecureRequests: true only to test against a local server.`,
    );
  }
  if ((url.pathname !== "/" && url.pathname !== "") || url.search || url.hash) {
    throw inputError(option, `${option} must be the shared host alone (e.g. https://<your host>): the metadata is at {host}/.well-known/oauth-authorization-server.`);
  }
  return url;
}

/**
 * oauth4webapi's errors as this package's, keeping `error` and `error_description` and dropping what could hold a
 * secret: their `cause` may carry the token response or the callback's parameters (the authorization code).
 */
function wrap(error: unknown): unknown {
  if (error instanceof PlatformError) return error;
  if (error instanceof oauth.ResponseBodyError) {
    return new OAuthProtocolError(error.error, error.error_description, error.status, undefined, retryAfterMs(error.response.headers));
  }
  if (error instanceof oauth.AuthorizationResponseError) return new OAuthProtocolError(error.error, error.error_description, undefined);
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    const challenge = bearerChallenge(error.response.headers.get("www-authenticate"));
    return new OAuthProtocolError(challenge?.error ?? "invalid_client", challenge?.errorDescription, error.status, challenge);
  }
  if (error instanceof oauth.OperationProcessingError || error instanceof oauth.UnsupportedOperationError) {
    return new OAuthValidationError(error.message, error.code);
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof TypeError && typeof code === "string" && code.startsWith("ERR_INVALID_ARG")) {
    return new PlatformInputError("arguments", error.message);
  }
  return error;
}

/** `work`, its errors as this package's, with every credential of the call (`secrets`) redacted from them. */
async function wrapped<T>(secrets: Array<string | undefined>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new Redactor(secrets).error(wrap(error));
  }
}

/**
 * Reads the authorization server metadata at `{host}/.well-known/oauth-authorization-server` and checks that its
 * `issuer` is that host.
 */
export async function discover(host: string, options: OAuthOptions & RequestOptions = {}): Promise<OAuthServer> {
  const url = checkHost("host", host, options);
  const probe = reachWith(url.href, options);
  return wrapped([], async () => {
    const response = await oauth.discoveryRequest(url, { algorithm: "oauth2", ...requestOptions(probe, "discover", options) });
    return OAuthServer.fromMetadata(await oauth.processDiscoveryResponse(url, response), options);
  });
}

/** Client credentials for the token and revocation endpoints. */
export interface ClientCredentialsInput {
  server: OAuthServer;
  clientId: string;
  /** For confidential clients. Without one the client is public (`token_endpoint_auth_method: none`). */
  clientSecret?: string | undefined;
  /** How a secret is sent: HTTP Basic by default (RFC 6749 §2.3.1), or in the body. */
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none" | undefined;
}

function clientOf({ clientId }: ClientCredentialsInput): oauth.Client {
  if (typeof clientId !== "string" || clientId === "") throw inputError("clientId", "clientId must be a non-empty string.");
  return { client_id: clientId };
}

function authOf({ clientSecret, tokenEndpointAuthMethod }: ClientCredentialsInput): oauth.ClientAuth {
  if (tokenEndpointAuthMethod === "none" || clientSecret === undefined) {
    if (tokenEndpointAuthMethod !== undefined && tokenEndpointAuthMethod !== "none") {
      throw inputError("clientSecret", `tokenEndpointAuthMethod ${tokenEndpointAuthMethod} needs a clientSecret.`);
    }
    return oauth.None();
  }
  if (typeof clientSecret !== "string" || clientSecret === "") throw inputError("clientSecret", "clientSecret must be a non-empty string.");
  checkCredential("clientSecret", clientSecret, inputError);
  return tokenEndpointAuthMethod === "client_secret_post" ? oauth.ClientSecretPost(clientSecret) : oauth.ClientSecretBasic(clientSecret);
}

/** A credential argument (a refresh token, a token to revoke, an initial access token): non-empty visible ASCII. */
function credentialOf(field: string, value: unknown): string {
  if (typeof value !== "string" || value === "") throw inputError(field, `${field} must be a non-empty string.`);
  return checkCredential(field, value, inputError);
}

/**
 * What a call's errors must never show: the client secret, as given and as HTTP Basic sends it (RFC 6749 §2.3.1: both
 * parts form-urlencoded, then base64), and the call's other credentials.
 */
function secretsOf({ clientId, clientSecret }: ClientCredentialsInput, ...others: Array<string | undefined>): Array<string | undefined> {
  if (clientSecret === undefined) return others;
  const formEncoded = (value: string) => encodeURIComponent(value).replace(/[-_.!~*'()]|%20/g, (c) => (c === "%20" ? "+" : `%${c.charCodeAt(0).toString(16).toUpperCase()}`));
  return [clientSecret, btoa(`${formEncoded(clientId)}:${formEncoded(clientSecret)}`), ...others];
}

/** A registered client. `clientSecret` and `registrationAccessToken` are accessors over private fields. */
export class RegisteredClient {
  readonly clientId: string;
  /** What the server returned, without `client_secret` and `registration_access_token`. */
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly #clientSecret: string | undefined;
  readonly #registrationAccessToken: string | undefined;

  constructor(response: Record<string, unknown>) {
    const { client_secret, registration_access_token, ...metadata } = response;
    this.clientId = String(response.client_id);
    this.metadata = Object.freeze(metadata);
    this.#clientSecret = typeof client_secret === "string" ? client_secret : undefined;
    this.#registrationAccessToken = typeof registration_access_token === "string" ? registration_access_token : undefined;
  }

  get clientSecret(): string | undefined {
    return this.#clientSecret;
  }

  get registrationAccessToken(): string | undefined {
    return this.#registrationAccessToken;
  }

  toJSON(): { clientId: string; metadata: Readonly<Record<string, unknown>>; hasClientSecret: boolean } {
    return { clientId: this.clientId, metadata: this.metadata, hasClientSecret: this.#clientSecret !== undefined };
  }
}

/**
 * Dynamic Client Registration (RFC 7591) at the metadata's `registration_endpoint` (`POST /register`). Register the
 * `refresh_token` grant type to get refresh tokens. Which metadata fields the server accepts is not documented in v1.3.0.
 */
export async function registerClient(
  input: { server: OAuthServer; metadata: Partial<oauth.OmitSymbolProperties<oauth.Client>>; initialAccessToken?: string | undefined } & RequestOptions,
): Promise<RegisteredClient> {
  const { server } = input;
  if (input.initialAccessToken !== undefined) credentialOf("initialAccessToken", input.initialAccessToken);
  return wrapped([input.initialAccessToken], async () => {
    const response = await oauth.dynamicClientRegistrationRequest(server.metadata, input.metadata ?? {}, {
      initialAccessToken: input.initialAccessToken,
      ...requestOptions(reachOf(server), "registerClient", input),
    });
    return new RegisteredClient((await oauth.processDynamicClientRegistrationResponse(response)) as Record<string, unknown>);
  });
}

/** The authorization request: where to send the user, and what to keep for the callback. */
export class AuthorizationRequest {
  readonly url: string;
  readonly state: string;
  readonly #codeVerifier: string;

  constructor(url: string, state: string, codeVerifier: string) {
    this.url = url;
    this.state = state;
    this.#codeVerifier = codeVerifier;
  }

  /** The PKCE code verifier: keep it server-side (e.g. in the session) for `exchangeCode`. */
  get codeVerifier(): string {
    return this.#codeVerifier;
  }

  toJSON(): { url: string; state: string } {
    return { url: this.url, state: this.state };
  }
}

/**
 * The authorization URL for the authorization code flow with PKCE: a fresh code verifier, its `S256` challenge (the
 * only method the description allows), and a `state` (generated unless given). Resolves `{ url, state, codeVerifier }`.
 */
export async function authorizationUrl(input: {
  server: OAuthServer;
  clientId: string;
  redirectUri: string;
  /** Space-delimited scopes (`<area>:read`, `<area>:write`, `offline_access`). */
  scope: string;
  state?: string | undefined;
  /** `S256`, the default, is the only method allowed; anything else is refused. */
  codeChallengeMethod?: string | undefined;
  /** More authorization parameters; they cannot replace the ones above. */
  extraParams?: Record<string, string> | undefined;
}): Promise<AuthorizationRequest> {
  const { server } = input;
  const method = input.codeChallengeMethod ?? "S256";
  if (!pkceMethods.includes(method)) {
    throw inputError("codeChallengeMethod", `codeChallengeMethod ${method} is not allowed: PKCE with ${pkceMethods.join(" or ")} is required.`);
  }
  const supported = server.metadata.code_challenge_methods_supported;
  if (Array.isArray(supported) && !supported.includes(method)) {
    throw new OAuthValidationError(`the authorization server does not list ${method} in code_challenge_methods_supported`, "OAUTH_INVALID_SERVER_METADATA");
  }
  for (const [name, value] of Object.entries({ clientId: input.clientId, redirectUri: input.redirectUri, scope: input.scope })) {
    if (typeof value !== "string" || value.trim() === "") throw inputError(name, `${name} must be a non-empty string.`);
  }
  if (input.state !== undefined && (typeof input.state !== "string" || input.state === "")) throw inputError("state", "state must be a non-empty string.");
  const endpoint = server.metadata.authorization_endpoint;
  if (typeof endpoint !== "string") throw new OAuthValidationError("the authorization server metadata has no authorization_endpoint", "OAUTH_MISSING_SERVER_METADATA");
  const url = new URL(endpoint);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && reachOf(server).allowInsecureRequests)) {
    throw new OAuthValidationError("only https authorization endpoints are allowed", "OAUTH_HTTP_REQUEST_FORBIDDEN");
  }
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = input.state ?? oauth.generateRandomState();
  for (const [name, value] of Object.entries(input.extraParams ?? {})) url.searchParams.set(name, value);
  const params = {
    response_type: "code",
    client_id: input.clientId,
    redirect_uri: input.redirectUri,
    scope: input.scope,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: method,
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return new AuthorizationRequest(url.href, state, codeVerifier);
}

/** Tokens from the token endpoint. `accessToken` and `refreshToken` are accessors over private fields. */
export class TokenSet {
  readonly tokenType: string;
  /** Seconds, from the response, else the documented lifetime (3600). */
  readonly expiresIn: number;
  readonly expiresAt: Date;
  /** The granted scopes, space-delimited, when the server says. */
  readonly scope: string | undefined;
  readonly #accessToken: string;
  readonly #refreshToken: string | undefined;

  constructor(response: oauth.TokenEndpointResponse, now: number = Date.now()) {
    this.tokenType = response.token_type;
    this.expiresIn = typeof response.expires_in === "number" ? response.expires_in : accessTokenLifetimeSeconds;
    this.expiresAt = new Date(now + this.expiresIn * 1000);
    this.scope = typeof response.scope === "string" ? response.scope : undefined;
    this.#accessToken = response.access_token;
    this.#refreshToken = typeof response.refresh_token === "string" ? response.refresh_token : undefined;
  }

  get accessToken(): string {
    return this.#accessToken;
  }

  get refreshToken(): string | undefined {
    return this.#refreshToken;
  }

  /** Whether the access token expires within `marginMs` (default one minute). */
  expiresWithin(marginMs = 60_000, now: number = Date.now()): boolean {
    return this.expiresAt.getTime() - now <= marginMs;
  }

  toJSON(): { tokenType: string; expiresIn: number; expiresAt: string; scope: string | undefined; hasRefreshToken: boolean } {
    return { tokenType: this.tokenType, expiresIn: this.expiresIn, expiresAt: this.expiresAt.toISOString(), scope: this.scope, hasRefreshToken: this.#refreshToken !== undefined };
  }
}

/**
 * Completes the authorization code flow: checks the callback URL (`state` must be `expectedState`; `iss` must be the
 * server's issuer when present, and must be present when the metadata says the server sends it — RFC 9207), turns an
 * `error` redirect into an `OAuthProtocolError`, then exchanges the code with the PKCE verifier.
 */
export async function exchangeCode(
  input: ClientCredentialsInput & {
    /** The full URL the user came back to (`redirectUri` with `code`, `state`, `iss`). */
    callbackUrl: string | URL;
    expectedState: string;
    codeVerifier: string;
    redirectUri: string;
  } & RequestOptions,
): Promise<TokenSet> {
  const { server } = input;
  const client = clientOf(input);
  const auth = authOf(input);
  if (typeof input.expectedState !== "string" || input.expectedState === "") throw inputError("expectedState", "expectedState must be the state of the authorization request.");
  if (typeof input.codeVerifier !== "string" || input.codeVerifier === "") throw inputError("codeVerifier", "codeVerifier must be the one of the authorization request.");
  let callback: URL;
  try {
    callback = new URL(input.callbackUrl);
  } catch {
    throw inputError("callbackUrl", "callbackUrl must be the absolute URL the authorization server redirected to.");
  }
  return wrapped(secretsOf(input, input.codeVerifier, callback.searchParams.get("code") ?? undefined), async () => {
    const params = oauth.validateAuthResponse(server.metadata, client, callback, input.expectedState);
    const response = await oauth.authorizationCodeGrantRequest(server.metadata, client, auth, params, input.redirectUri, input.codeVerifier, {
      ...requestOptions(reachOf(server), "exchangeCode", input),
    });
    return new TokenSet(await oauth.processAuthorizationCodeResponse(server.metadata, client, response));
  });
}

/** A new access token from a refresh token (`grant_type=refresh_token`; the client must have registered that grant type). */
export async function refresh(input: ClientCredentialsInput & { refreshToken: string } & RequestOptions): Promise<TokenSet> {
  const { server } = input;
  const client = clientOf(input);
  const auth = authOf(input);
  credentialOf("refreshToken", input.refreshToken);
  return wrapped(secretsOf(input, input.refreshToken), async () => {
    const response = await oauth.refreshTokenGrantRequest(server.metadata, client, auth, input.refreshToken, {
      ...requestOptions(reachOf(server), "refresh", input),
    });
    return new TokenSet(await oauth.processRefreshTokenResponse(server.metadata, client, response));
  });
}

/** A machine-to-machine token (`grant_type=client_credentials`). */
export async function clientCredentials(input: ClientCredentialsInput & { scope?: string | undefined } & RequestOptions): Promise<TokenSet> {
  const { server } = input;
  const client = clientOf(input);
  const auth = authOf(input);
  return wrapped(secretsOf(input), async () => {
    const response = await oauth.clientCredentialsGrantRequest(server.metadata, client, auth, input.scope ? { scope: input.scope } : {}, {
      ...requestOptions(reachOf(server), "clientCredentials", input),
    });
    return new TokenSet(await oauth.processClientCredentialsResponse(server.metadata, client, response));
  });
}

/** Revokes an access or refresh token at the metadata's `revocation_endpoint` (`POST /revoke`). */
export async function revoke(
  input: ClientCredentialsInput & { token: string; tokenTypeHint?: "access_token" | "refresh_token" | undefined } & RequestOptions,
): Promise<void> {
  const { server } = input;
  const client = clientOf(input);
  const auth = authOf(input);
  credentialOf("token", input.token);
  await wrapped(secretsOf(input, input.token), async () => {
    const response = await oauth.revocationRequest(server.metadata, client, auth, input.token, {
      additionalParameters: input.tokenTypeHint ? { token_type_hint: input.tokenTypeHint } : undefined,
      ...requestOptions(reachOf(server), "revoke", input),
    });
    await oauth.processRevocationResponse(response);
  });
}

/**
 * A `getAccessToken` for `createPlatformClient` that refreshes ahead of expiry: it hands out the current access token
 * and, once it expires within `refreshAheadMs` (default one minute), refreshes it first (one refresh at a time).
 * `onRefresh` receives each new token set, e.g. to store the rotated refresh token.
 */
export function refreshingAccessToken(
  input: ClientCredentialsInput & { tokens: TokenSet; refreshAheadMs?: number | undefined; onRefresh?: ((tokens: TokenSet) => void | Promise<void>) | undefined },
): () => Promise<string> {
  let current = input.tokens;
  let pending: Promise<TokenSet> | undefined;
  return async () => {
    if (!current.expiresWithin(input.refreshAheadMs)) return current.accessToken;
    const refreshToken = current.refreshToken;
    if (refreshToken === undefined) return current.accessToken; // nothing to refresh with: the service will say 401
    pending ??= refresh({ ...input, refreshToken })
      .then(async (tokens) => {
        await input.onRefresh?.(tokens);
        current = tokens;
        return tokens;
      })
      .finally(() => {
        pending = undefined;
      });
    return (await pending).accessToken;
  };
}

export type { AuthorizationServer, Client as ClientMetadata } from "oauth4webapi";
