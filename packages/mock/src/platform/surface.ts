import { createHash } from "node:crypto";
import { operations, rateLimits } from "../generated/platform.operations.js";
import { json, type Surface, type SurfaceResponse } from "../http.js";
import { requestId } from "../request-id.js";
import { createEngine, type PrismOperation } from "../scraper/engine.js";
import { Buckets, documentedSuccess, header, operationRouter, queryProblem, rateLimitHeaders, statedPerMinute } from "../surface-kit.js";

// The OAuth platform API (`/api/oauth/v1`): Prism serves the documented examples; this layer adds what the service does
// around them: the bearer token on resource operations, idempotent writes, the per-token rate limit and magic tokens.

type Rules = (typeof operations)[keyof typeof operations] & {
  security?: readonly string[];
  idempotency?: string;
  idempotencyKey?: { required: boolean; minLength?: number; maxLength?: number };
};

/** Tokens with a meaning in the sandbox (README: "Platform"). Any other non-empty token is a valid grant. */
export const platformTokens = {
  /** The company's subscription is inactive: resource calls answer 402 `subscription_required`. */
  noSubscription: "sandbox_no_subscription",
  /** The grant lacks the scope an operation needs: 403 `insufficient_scope` with a challenge. */
  insufficientScope: "sandbox_insufficient_scope",
  /** An expired or revoked token: 401 `unauthorized` with a challenge. */
  expired: "sandbox_expired",
} as const;

export interface PlatformOptions {
  description: string;
  seed: string;
  dynamic: boolean;
  requestsPerMinute: number | undefined;
}

/** The resource limit of `x-rate-limits` (per client and company pair): counted per token in the sandbox. */
const resourceRequestsPerMinute = statedPerMinute(rateLimits, "resource");
const maxBodyBytes = 1024 * 1024;
// Keys are kept "about 24 hours"; the sandbox keeps at most this many, the oldest forgotten first.
const maxStoredKeys = 100_000;

type Stored = { fingerprint: string; response: SurfaceResponse };

function failure(status: number, code: string, message: string, id: string, headers: Record<string, string> = {}, meta?: object): SurfaceResponse {
  return json(status, { error: { code, message, requestId: id, ...(meta ? { meta } : {}) } }, headers);
}

/** The scope an operation's area needs: not shown per operation, so derived from its tag and method (a sandbox choice). */
function scopeOf(operation: PrismOperation): string {
  const area = operation.tags?.[0]?.name.toLowerCase() ?? "settings";
  return `${area}:${operation.method.toLowerCase() === "get" ? "read" : "write"}`;
}

export async function createPlatformSurface(options: PlatformOptions): Promise<Surface> {
  const engine = await createEngine(options.description);
  const route = operationRouter(engine);
  const buckets = new Buckets(options.requestsPerMinute ?? resourceRequestsPerMinute);
  const stored = new Map<string, Stored>();
  const rulesOf = (operation: PrismOperation) => operations[(operation.iid ?? operation.id) as keyof typeof operations] as Rules | undefined;

  function challenge(host: string | undefined, error: string, scope?: string): string {
    const metadata = `http://${host ?? "127.0.0.1"}/.well-known/oauth-protected-resource/api/oauth/v1`;
    return `Bearer error="${error}"${scope ? `, scope="${scope}"` : ""}, resource_metadata="${metadata}"`;
  }

  async function answer(request: Parameters<Surface["handle"]>[0], id: string): Promise<SurfaceResponse> {
    const operation = route(request.method, request.path);
    if (operation === undefined) return failure(404, "not_found", `No operation at ${request.path}.`, id);
    if (operation === "method") return failure(404, "not_found", `${request.method} ${request.path} is not an operation.`, id);
    const rules = rulesOf(operation);
    const body = request.body === undefined ? undefined : safeJson(request.body);

    if (rules?.security?.length === 0) {
      // A protocol endpoint: no bearer token; its own limits are not shown, so the sandbox applies none.
      if (rules.operationId === "authorizeClient") return authorize(request.query ?? new URLSearchParams(), header(request.headers.host));
      const served = await documentedSuccess(engine, operation, body, options.dynamic, `${options.seed}:${operation.path}`);
      // A success without a body (revocation): its status and body are not shown; the sandbox answers an empty 200.
      if (served.body === undefined || served.body === "") return { status: served.status, headers: {}, body: "" };
      return json(served.status, served.body, { "Content-Type": served.contentType });
    }

    const host = header(request.headers.host);
    const [scheme, ...rest] = (header(request.headers.authorization) ?? "").trim().split(/\s+/);
    const token = scheme?.toLowerCase() === "bearer" ? rest.join(" ") : "";
    if (!token || token === platformTokens.expired) {
      const message = token ? "The access token has expired or was revoked: re-authenticate." : "An access token is required: send Authorization: Bearer <ACCESS_TOKEN>.";
      return failure(401, "unauthorized", message, id, { "WWW-Authenticate": challenge(host, "invalid_token") });
    }
    const bucket = buckets.get(token);
    if (!bucket.take()) {
      const retryAfter = String(bucket.state().retryAfter);
      return failure(429, "rate_limited", `Rate limit exceeded. Retry after ${retryAfter} seconds.`, id, { "Retry-After": retryAfter, ...rateLimitHeaders(bucket) });
    }
    const limits = rateLimitHeaders(bucket);
    if (token === platformTokens.noSubscription) {
      return failure(402, "subscription_required", "The company's subscription is inactive.", id, limits);
    }
    if (token === platformTokens.insufficientScope) {
      const scope = scopeOf(operation);
      return failure(403, "insufficient_scope", `The access token lacks the ${scope} scope: re-authorize with it.`, id, {
        ...limits,
        "WWW-Authenticate": challenge(host, "insufficient_scope", scope),
      }, { scope });
    }

    // A query parameter beyond its documented range: 400 `invalid_request` (the code is a sandbox choice, as for the key).
    const problem = queryProblem(operation, request.query);
    if (problem) return failure(400, "invalid_request", problem, id, limits);
    const key = rules?.idempotencyKey ? header(request.headers["idempotency-key"]) : undefined;
    if (rules?.idempotencyKey) {
      const { required, minLength, maxLength } = rules.idempotencyKey;
      // The reference says "missing gives 400" without its code: `invalid_request` is a sandbox choice.
      if (required && !key) return failure(400, "invalid_request", "This write requires an Idempotency-Key header.", id, limits);
      if (key !== undefined && ((minLength !== undefined && key.length < minLength) || (maxLength !== undefined && key.length > maxLength))) {
        return failure(400, "invalid_request", `The Idempotency-Key must be ${minLength ?? 1} to ${maxLength ?? "any number of"} characters.`, id, limits);
      }
    }
    const slot = key === undefined ? undefined : `${token}\n${operation.method} ${request.path}\n${key}`;
    const fingerprint = createHash("sha256").update(request.body ?? Buffer.alloc(0)).digest("hex");
    const previous = slot === undefined ? undefined : stored.get(slot);
    if (previous) {
      if (previous.fingerprint !== fingerprint) {
        return failure(409, "idempotency_conflict", "This Idempotency-Key was used with a different body.", id, limits);
      }
      return { ...previous.response, headers: { ...previous.response.headers, ...limits, "Idempotent-Replayed": "true" } };
    }

    const served = await documentedSuccess(engine, operation, body, options.dynamic, `${options.seed}:${request.path}:${fingerprint}`);
    const response = json(served.status, served.body, { "Content-Type": served.contentType, ...limits });
    if (slot !== undefined) {
      if (stored.size >= maxStoredKeys) stored.delete(stored.keys().next().value as string);
      stored.set(slot, { fingerprint, response });
    }
    return response;
  }

  return {
    maxBodyBytes,
    tooLarge: () => failure(413, "invalid_request", `Request body exceeds the ${maxBodyBytes / 1024} KB sandbox limit.`, requestId()),
    async handle(request) {
      const id = requestId();
      try {
        return await answer(request, id);
      } catch (error) {
        console.error(`content-scraper-mock: ${request.method} ${request.path} (${id}) failed:`, error);
        return failure(500, "internal", "The sandbox failed to answer this request; see its log.", id);
      }
    },
  };
}

/**
 * The sandbox consents at once (a sandbox choice): a trusted-looking request redirects to `redirect_uri` with a sandbox
 * `code`, the `state` and `iss`. Without `client_id` or `redirect_uri` the error cannot be redirected: the documented
 * HTML error page (400).
 */
function authorize(query: URLSearchParams, host: string | undefined): SurfaceResponse {
  const clientId = query.get("client_id");
  const redirectUri = query.get("redirect_uri");
  let target: URL | undefined;
  try {
    target = redirectUri ? new URL(redirectUri) : undefined;
  } catch {
    target = undefined;
  }
  if (!clientId || !target) {
    const page = "<!DOCTYPE html>\n<html lang=\"en\">\n  <head><title>Authorization error</title></head>\n  <body>\n    <h1>Authorization error</h1>\n    <p>The client_id or redirect_uri cannot be trusted.</p>\n  </body>\n</html>\n";
    return { status: 400, headers: { "Content-Type": "text/html; charset=utf-8" }, body: page };
  }
  const issuer = `http://${host ?? "127.0.0.1"}`;
  const pkce = query.get("code_challenge_method");
  if (pkce !== "S256" || !query.get("code_challenge")) {
    target.searchParams.set("error", "invalid_request");
    target.searchParams.set("error_description", "PKCE with code_challenge_method=S256 is required.");
  } else {
    target.searchParams.set("code", `sandbox_code_${createHash("sha256").update(`${clientId}:${query.get("code_challenge")}`).digest("hex").slice(0, 24)}`);
  }
  const state = query.get("state");
  if (state !== null) target.searchParams.set("state", state);
  target.searchParams.set("iss", issuer);
  return { status: 302, headers: { Location: target.toString() }, body: "" };
}

function safeJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    return raw.toString("utf8");
  }
}
