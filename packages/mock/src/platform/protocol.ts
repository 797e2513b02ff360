import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { BodyProblem } from "../body.js";
import { BoundedMap } from "../bounded.js";
import type { SandboxClock } from "../control/clock.js";
import { oauth } from "../generated/platform.operations.js";
import { json, type SurfaceRequest, type SurfaceResponse } from "../http.js";
import { stateLimits } from "../limits.js";
import type { PrismOperation } from "../scraper/engine.js";
import { header } from "../surface-kit.js";

// The OAuth protocol endpoints, as an OAuth client (oauth4webapi) needs them: discovery that names the host it was asked
// on, registration that keeps the client it registers, authorization codes bound to their PKCE challenge, client,
// redirect_uri and scopes, and tokens that carry only the granted scopes and expire on the sandbox clock. The reference
// shows few of these details: RFC 8414, 7591, 6749, 7636 and 9068 fill them (README: choices).

const scheme = oauth.OAuth2;
/** Every scope the description's flows name (`campaigns:read`, …, `offline_access`). */
export const knownScopes: ReadonlySet<string> = new Set(Object.values(scheme.flows).flatMap((flow) => flow.scopes));
const lifetimeSeconds = scheme.accessToken.expiresInSeconds;

/** Prism's documented success of the operation: its example. */
export type Documented = () => Promise<{ status: number; contentType: string; body: unknown }>;

/** The origin a request came to: the issuer, and the host of every URL the sandbox hands out. */
export function originOf(headers: IncomingHttpHeaders): string {
  return `http://${header(headers.host) ?? "127.0.0.1"}`;
}

/** A registered client: the RFC 7591 metadata the sandbox acts on. */
interface Client {
  redirectUris: string[];
  grantTypes: string[];
}

interface Grant {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scopes: string[];
  used: boolean;
  /** The example code: redeemable any number of times, so that every copy of the printed sample works. */
  standing?: boolean;
}

/** The client the description's examples use, and the authorization code of its token request example. */
interface ExampleClient {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  code: { value: string; verifier: string } | undefined;
}

/** An example's value: Prism's examples are inline (`value`) or external (`externalValue`, which the sandbox cannot read). */
const exampleValue = (example: object | undefined): unknown => (example && "value" in example ? example.value : undefined);

/**
 * The example client of the description: `/authorize`'s `client_id`, `redirect_uri` and `scope` examples, and the
 * token request example that exchanges a code for that client. Absent when the examples do not name one.
 */
export function exampleClientOf(authorize: PrismOperation | undefined, token: PrismOperation | undefined): ExampleClient | undefined {
  const query = (name: string) => exampleValue(authorize?.request?.query?.find((parameter) => parameter.name === name)?.examples?.[0]);
  const [clientId, redirectUri, scope] = [query("client_id"), query("redirect_uri"), query("scope")];
  if (typeof clientId !== "string" || typeof redirectUri !== "string") return undefined;
  const exchange = (token?.request?.body?.contents ?? [])
    .flatMap((content) => content.examples ?? [])
    .map((example) => exampleValue(example) as Record<string, unknown> | undefined)
    .find((value) => value?.grant_type === "authorization_code" && value.client_id === clientId && value.redirect_uri === redirectUri);
  const code = typeof exchange?.code === "string" && typeof exchange.code_verifier === "string" ? { value: exchange.code, verifier: exchange.code_verifier } : undefined;
  return { clientId, redirectUri, scopes: typeof scope === "string" ? scope.split(" ").filter(Boolean) : [], code };
}

/** What the sandbox knows of a token it issued. */
export interface Issued {
  clientId: string;
  scopes: string[];
  /** Sandbox time (ms) after which it no longer authenticates; refresh tokens do not expire. */
  expiresAt: number;
  kind: "access" | "refresh";
  revoked: boolean;
}

/** How the sandbox's refresh tokens start: one it forgot is still told from a token it never issued. */
const refreshPrefix = "sandbox_rt_";
/** The registration metadata an answer reflects, as sent. */
const reflected = ["client_name", "redirect_uris", "grant_types", "response_types"];

const unsupportedGrant = "grant_type must be authorization_code, refresh_token or client_credentials, in a form body.";
/** RFC 6749 §5.2: an `error_description` is printable ASCII without `"` and `\`. */
const describable = (text: string) => text.replaceAll('"', "'").replaceAll("\\", "/").replace(/[^\x20-\x7E]/g, "?");
const protocolError = (status: number, error: string, description: string, headers: Record<string, string> = {}) =>
  json(status, { error, error_description: describable(description) }, headers);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === "string");
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** The RFC 7591 metadata problem of a registration, in its terms (`invalid_redirect_uri`, `invalid_client_metadata`). */
function metadataProblem(body: Record<string, unknown>): { error: string; description: string } | undefined {
  const uris = body.redirect_uris;
  if (uris !== undefined) {
    if (!isStrings(uris)) return { error: "invalid_redirect_uri", description: "redirect_uris must be an array of URIs." };
    if (uris.some((uri) => !URL.canParse(uri))) return { error: "invalid_redirect_uri", description: "Every redirect_uri must be an absolute URI." };
  }
  for (const field of ["grant_types", "response_types"]) {
    if (body[field] !== undefined && !isStrings(body[field])) return { error: "invalid_client_metadata", description: `${field} must be an array of strings.` };
  }
  if (body.client_name !== undefined && typeof body.client_name !== "string") return { error: "invalid_client_metadata", description: "client_name must be a string." };
  return undefined;
}

/** The protocol endpoints of one sandbox: `answer(operationId, …)` for every operation with `security: []`. */
export function createProtocol(seed: string, clock: SandboxClock, example: ExampleClient | undefined) {
  // Clients, codes and tokens do not expire from memory by age (access tokens stop working after their lifetime): each
  // store is bounded (`stateLimits`), the least recently used client and the oldest code or token forgotten first.
  const clients = new BoundedMap<Client>(stateLimits.clients);
  const codes = new BoundedMap<Grant>(stateLimits.codes);
  const tokens = new BoundedMap<Issued>(stateLimits.tokens);
  // The reference's samples name the example client and its code: outside those stores, in every sandbox, always.
  const exampleClient: Client | undefined = example && { redirectUris: [example.redirectUri], grantTypes: ["authorization_code", "refresh_token", "client_credentials"] };
  const exampleGrant: Grant | undefined = example?.code && {
    clientId: example.clientId,
    redirectUri: example.redirectUri,
    challenge: createHash("sha256").update(example.code.verifier).digest("base64url"),
    scopes: example.scopes,
    used: false,
    standing: true,
  };
  const clientOf = (clientId: string) => (clientId === example?.clientId ? exampleClient : clients.use(clientId));
  const grantOf = (code: string) => (code === example?.code?.value ? exampleGrant : codes.get(code));
  // Signs the access tokens this sandbox issues (RFC 9068 JWTs); nothing outside the sandbox needs to verify them.
  const signingKey = randomBytes(32);
  const sign = (text: string) => createHmac("sha256", signingKey).update(text).digest("base64url");
  /** Whether the sandbox issued a token, held or not: an access token it signed, or one of its refresh tokens. */
  function issuedHere(token: string): boolean {
    if (token.startsWith(refreshPrefix)) return true;
    const cut = token.lastIndexOf(".");
    if (cut <= 0) return false;
    const [signature, expected] = [Buffer.from(token.slice(cut + 1)), Buffer.from(sign(token.slice(0, cut)))];
    return signature.length === expected.length && timingSafeEqual(signature, expected);
  }

  /** An RFC 9068 access token (HS256, signed by this sandbox) and, for clients that registered the grant, a refresh token. */
  function issue(clientId: string, scopes: string[], origin: string): SurfaceResponse {
    const now = clock.now();
    const iat = Math.floor(now / 1000);
    const claims = {
      iss: origin,
      sub: "sandbox_user",
      aud: `${origin}/api/oauth/v1`,
      client_id: clientId,
      scope: scopes.join(" "),
      iat,
      exp: iat + lifetimeSeconds,
      jti: randomBytes(12).toString("base64url"),
    };
    const unsigned = `${base64url({ alg: "HS256", typ: "at+jwt" })}.${base64url(claims)}`;
    const accessToken = `${unsigned}.${sign(unsigned)}`;
    tokens.set(accessToken, { clientId, scopes, expiresAt: now + lifetimeSeconds * 1000, kind: "access", revoked: false });
    const body: Record<string, unknown> = { access_token: accessToken, token_type: "Bearer", expires_in: lifetimeSeconds };
    // RFC 6749 §3.3: a scope is one or more scope tokens; a grant of none carries no `scope`.
    if (scopes.length > 0) body.scope = scopes.join(" ");
    if (clientOf(clientId)?.grantTypes.includes("refresh_token")) {
      const refreshToken = `${refreshPrefix}${randomBytes(18).toString("base64url")}`;
      tokens.set(refreshToken, { clientId, scopes, expiresAt: Number.POSITIVE_INFINITY, kind: "refresh", revoked: false });
      body.refresh_token = refreshToken;
    }
    return json(200, body, { "Cache-Control": "no-store" });
  }

  /** The requested scopes, or the first that the description does not name. */
  function scopesOf(requested: string | null): { ok: true; scopes: string[] } | { ok: false; scope: string } {
    const scopes = [...new Set((requested ?? "").split(" ").filter(Boolean))];
    const unknown = scopes.find((scope) => !knownScopes.has(scope));
    return unknown === undefined ? { ok: true, scopes } : { ok: false, scope: unknown };
  }

  /**
   * The sandbox consents at once: a request from a registered client to one of its redirect URIs redirects there with a
   * fresh `code`, the `state` and `iss`. An unregistered client, or a redirect URI it did not register, cannot be
   * trusted: the documented HTML error page.
   */
  function authorize(query: URLSearchParams, issuer: string, problem: string | undefined): SurfaceResponse {
    const clientId = query.get("client_id") ?? "";
    const redirectUri = query.get("redirect_uri") ?? "";
    const client = clientOf(clientId);
    if (!client?.redirectUris.includes(redirectUri)) {
      const reason = client ? "The redirect_uri is not one this client registered." : "The client_id is not a registered client.";
      const page = `<!DOCTYPE html>\n<html lang="en">\n  <head><title>Authorization error</title></head>\n  <body>\n    <h1>Authorization error</h1>\n    <p>${reason}</p>\n  </body>\n</html>\n`;
      return { status: 400, headers: { "Content-Type": "text/html; charset=utf-8" }, body: page };
    }
    const target = new URL(redirectUri);
    const challenge = query.get("code_challenge");
    const scopes = scopesOf(query.get("scope"));
    const refuse = (error: string, description: string) => {
      target.searchParams.set("error", error);
      target.searchParams.set("error_description", description);
    };
    const responseType = query.get("response_type");
    // RFC 6749 §4.1.2.1: the authorization code flow is the only one the description documents.
    if (responseType === null) refuse("invalid_request", "response_type is required: code.");
    else if (responseType !== "code") refuse("unsupported_response_type", "Only response_type=code (the authorization code flow) is supported.");
    else if (query.get("code_challenge_method") !== "S256" || !challenge) refuse("invalid_request", "PKCE with code_challenge_method=S256 is required.");
    // A parameter outside its documented schema (a code_challenge that is no RFC 7636 §4.2 challenge, …).
    else if (problem) refuse("invalid_request", problem);
    else if (!client.grantTypes.includes("authorization_code")) refuse("unauthorized_client", "This client did not register the authorization_code grant.");
    else if (!scopes.ok) refuse("invalid_scope", `Unknown scope: ${scopes.scope}.`);
    else {
      const code = `sandbox_code_${randomBytes(18).toString("base64url")}`;
      codes.set(code, { clientId, redirectUri, challenge, scopes: scopes.scopes, used: false });
      target.searchParams.set("code", code);
    }
    // RFC 6749 §3.1: a parameter sent without a value counts as left out.
    const state = query.get("state");
    if (state) target.searchParams.set("state", state);
    target.searchParams.set("iss", issuer);
    return { status: 302, headers: { Location: target.toString() }, body: "" };
  }

  /** Why an authorization code exchange fails (`invalid_grant`), or the grant when the code, client and verifier agree. */
  function redeem(form: Record<string, string>, clientId: string): Grant | string {
    const grant = grantOf(form.code ?? "");
    if (!grant) return "The authorization code is unknown.";
    if (grant.used) return "The authorization code was already used.";
    grant.used = !grant.standing; // One exchange per code, whether it succeeds or not.
    if (grant.clientId !== clientId) return "The authorization code was issued to another client.";
    if (grant.redirectUri !== form.redirect_uri) return "redirect_uri differs from the one of the authorization request.";
    const verifier = form.code_verifier ?? "";
    if (createHash("sha256").update(verifier).digest("base64url") !== grant.challenge) return "code_verifier does not match the code_challenge (S256).";
    return grant;
  }

  function token(request: SurfaceRequest, form: Record<string, string>, origin: string): SurfaceResponse {
    const grantType = form.grant_type;
    if (grantType !== "authorization_code" && grantType !== "refresh_token" && grantType !== "client_credentials") {
      return protocolError(400, "unsupported_grant_type", unsupportedGrant);
    }
    const clientId = clientIdOf(request, form);
    const client = clientId === undefined ? undefined : clientOf(clientId);
    if (!client || clientId === undefined) return protocolError(401, "invalid_client", "The client is not registered: register it at /register first.");
    if (!client.grantTypes.includes(grantType)) return protocolError(400, "unauthorized_client", `This client did not register the ${grantType} grant.`);
    if (grantType === "authorization_code") {
      const grant = redeem(form, clientId);
      return typeof grant === "string" ? protocolError(400, "invalid_grant", grant) : issue(clientId, grant.scopes, origin);
    }
    if (grantType === "refresh_token") {
      const previous = tokens.get(form.refresh_token ?? "");
      if (previous?.kind !== "refresh" || previous.revoked || previous.clientId !== clientId) {
        return protocolError(400, "invalid_grant", "The refresh token is unknown, revoked, or was issued to another client.");
      }
      const narrower = form.scope === undefined ? { ok: true as const, scopes: previous.scopes } : scopesOf(form.scope);
      if (!narrower.ok || narrower.scopes.some((scope) => !previous.scopes.includes(scope))) {
        return protocolError(400, "invalid_scope", "A refresh can only ask for scopes of the original grant.");
      }
      previous.revoked = true; // rotated: the answer carries the refresh token to use next
      return issue(clientId, narrower.scopes, origin);
    }
    const requested = scopesOf(form.scope ?? null);
    if (!requested.ok) return protocolError(400, "invalid_scope", `Unknown scope: ${requested.scope}.`);
    return issue(clientId, requested.scopes, origin);
  }

  /** RFC 7591's 201, reflecting the metadata sent, with a client_id that follows from the seed and that metadata. */
  function register(body: unknown): SurfaceResponse {
    const sent = isObject(body) ? body : {};
    const problem = metadataProblem(sent);
    if (problem) return protocolError(400, problem.error, problem.description);
    const metadata = Object.fromEntries(Object.entries(sent).filter(([name]) => reflected.includes(name)));
    const clientId = `sandbox_client_${createHash("sha256").update(`${seed}\n${JSON.stringify(metadata)}`).digest("hex").slice(0, 24)}`;
    // RFC 7591 §2: without grant_types, the client uses authorization_code.
    clients.set(clientId, { redirectUris: (sent.redirect_uris as string[]) ?? [], grantTypes: (sent.grant_types as string[]) ?? ["authorization_code"] });
    return json(201, { client_id: clientId, ...metadata });
  }

  return {
    /**
     * A body the description refuses, in the protocol's terms: RFC 7591's for a registration, else RFC 6749's, where a
     * `grant_type` the token endpoint does not offer is `unsupported_grant_type` whatever else is wrong (§5.2).
     */
    refuseBody(operationId: string, problem: BodyProblem): SurfaceResponse {
      if (operationId === "registerClient") {
        const error = problem.field?.split(".")[0] === "redirect_uris" ? "invalid_redirect_uri" : "invalid_client_metadata";
        return protocolError(400, error, problem.message);
      }
      if (operationId === "requestToken" && problem.field === "grant_type" && problem.reason !== "required") {
        return protocolError(400, "unsupported_grant_type", unsupportedGrant);
      }
      return protocolError(400, "invalid_request", problem.message);
    },
    /**
     * Answers a protocol operation; `body` is the request body, already decoded and valid against its schema, and
     * `queryProblem` the first query parameter outside its documented schema, if any.
     */
    async answer(operationId: string, request: SurfaceRequest, body: unknown, documented: Documented, queryProblem?: string): Promise<SurfaceResponse> {
      const origin = originOf(request.headers);
      switch (operationId) {
        case "authorizeClient":
          return authorize(request.query ?? new URLSearchParams(), origin, queryProblem);
        case "getAuthorizationServerMetadata":
          return metadataAt(origin, await documented());
        case "registerClient":
          return register(body);
        case "requestToken":
          return token(request, (body ?? {}) as Record<string, string>, origin);
        case "revokeToken": {
          // RFC 7009: revoking an unknown token is not an error.
          const issued = tokens.get(((body ?? {}) as Record<string, string>).token ?? "");
          if (issued) issued.revoked = true;
          return answerOf(await documented());
        }
        default:
          return answerOf(await documented());
      }
    },
    /** What the sandbox issued as `token`, if it did and still holds it. */
    issued: (token: string): Issued | undefined => tokens.get(token),
    /** Whether the sandbox issued `token` but no longer holds it (forgotten to make room): it authenticates no more. */
    forgotten: (token: string): boolean => tokens.get(token) === undefined && issuedHere(token),
    /** Forgets every client, code and token. */
    reset(): void {
      clients.clear();
      codes.clear();
      tokens.clear();
    },
  };
}

/** Prism's answer as the surface sends it; a success without a body (revocation) is an empty 200. */
function answerOf(served: Awaited<ReturnType<Documented>>): SurfaceResponse {
  if (served.body === undefined || served.body === "") return { status: served.status, headers: {}, body: "" };
  return json(served.status, served.body, { "Content-Type": served.contentType });
}

/** The documented metadata, its example's origin (`https://api.example.invalid`) replaced by the one asked. */
function metadataAt(origin: string, served: Awaited<ReturnType<Documented>>): SurfaceResponse {
  const example = served.body as Record<string, unknown>;
  const from = new URL(String(example.issuer)).origin;
  const rebase = (value: unknown) => (typeof value === "string" && (value === from || value.startsWith(`${from}/`)) ? origin + value.slice(from.length) : value);
  return json(served.status, Object.fromEntries(Object.entries(example).map(([name, value]) => [name, rebase(value)])), { "Content-Type": served.contentType });
}

/** The client: HTTP Basic (its id form-encoded, RFC 6749 §2.3.1), else `client_id` in the body (a public client). */
function clientIdOf(request: SurfaceRequest, form: Record<string, string>): string | undefined {
  const basic = /^Basic\s+(\S+)$/i.exec(header(request.headers.authorization) ?? "");
  if (!basic) return form.client_id;
  const id = Buffer.from(basic[1] as string, "base64").toString("utf8").split(":")[0] as string;
  try {
    return decodeURIComponent(id.replace(/\+/g, "%20"));
  } catch {
    return undefined;
  }
}
