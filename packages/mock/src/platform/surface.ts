import { createHash } from "node:crypto";
import { operations, rateLimits } from "../generated/platform.operations.js";
import { answerAll, json, type PrismSurfaceOptions, type Surface, type SurfaceResponse } from "../http.js";
import { requestId } from "../request-id.js";
import { createEngine, type PrismOperation } from "../scraper/engine.js";
import { Buckets, documentedSuccess, header, operationRouter, queryProblem, rateLimitHeaders, remember, statedPerMinute } from "../surface-kit.js";
import { createProtocol, originOf } from "./protocol.js";

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

export async function createPlatformSurface(options: PrismSurfaceOptions): Promise<Surface> {
  const engine = await createEngine(options.description);
  const route = operationRouter(engine);
  const buckets = new Buckets(options.requestsPerMinute ?? resourceRequestsPerMinute);
  const stored = new Map<string, Stored>();
  const protocol = createProtocol(options.seed);
  const rulesOf = (operation: PrismOperation) => operations[(operation.iid ?? operation.id) as keyof typeof operations] as Rules | undefined;

  function challenge(origin: string, error: string, scope?: string): string {
    const metadata = `${origin}/.well-known/oauth-protected-resource/api/oauth/v1`;
    return `Bearer error="${error}"${scope ? `, scope="${scope}"` : ""}, resource_metadata="${metadata}"`;
  }

  async function answer(request: Parameters<Surface["handle"]>[0], id: string): Promise<SurfaceResponse> {
    const operation = route(request.method, request.path, request.basePath);
    if (operation === undefined) return failure(404, "not_found", `No operation at ${request.path}.`, id);
    if (operation === "method") return failure(404, "not_found", `${request.method} ${request.path} is not an operation.`, id);
    const rules = rulesOf(operation);
    const body = request.body === undefined ? undefined : safeJson(request.body);

    if (rules?.security?.length === 0) {
      // A protocol endpoint: no bearer token, and no limits (theirs are not shown). Its examples are served even in
      // dynamic mode: the bodies' schemas are open, and a generated one would be no token or metadata a client can use.
      return protocol(rules.operationId, request, body, () => documentedSuccess(engine, operation, body, false, options.seed));
    }

    const origin = originOf(request.headers);
    const [scheme, ...rest] = (header(request.headers.authorization) ?? "").trim().split(/\s+/);
    const token = scheme?.toLowerCase() === "bearer" ? rest.join(" ") : "";
    if (!token || token === platformTokens.expired) {
      const message = token ? "The access token has expired or was revoked: re-authenticate." : "An access token is required: send Authorization: Bearer <ACCESS_TOKEN>.";
      return failure(401, "unauthorized", message, id, { "WWW-Authenticate": challenge(origin, "invalid_token") });
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
        "WWW-Authenticate": challenge(origin, "insufficient_scope", scope),
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
    if (slot !== undefined) remember(stored, slot, { fingerprint, response }, maxStoredKeys);
    return response;
  }

  return {
    maxBodyBytes,
    tooLarge: () => failure(413, "invalid_request", `Request body exceeds the ${maxBodyBytes / 1024} KB sandbox limit.`, requestId()),
    handle: answerAll(answer, (id) => failure(500, "internal", "The sandbox failed to answer this request; see its log.", id)),
  };
}

function safeJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    return raw.toString("utf8");
  }
}
