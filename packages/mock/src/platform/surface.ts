import { validateRequest } from "@content-scraper/validators/platform";
import { type BodyProblem, formMediaType, readBody, type Schema } from "../body.js";
import { idempotencyRetentionMs, operations, rateLimits } from "../generated/platform.operations.js";
import { pick } from "../hash.js";
import { type AnswerRecord, answerAll, json, type PrismSurfaceOptions, type Surface, type SurfaceRequest, type SurfaceResponse } from "../http.js";
import { checkIdempotencyKey, IdempotencyStore, idempotencyFull } from "../idempotency.js";
import { requestId } from "../request-id.js";
import { decodeCursor, encodeCursor } from "../scraper/catalog.js";
import { createEngine, type PrismOperation } from "../scraper/engine.js";
import { Buckets, documentedSuccess, header, operationRouter, queryProblem, rateLimitHeaders, statedPerMinute } from "../surface-kit.js";
import { createProtocol, exampleClientOf, knownScopes, originOf } from "./protocol.js";

// The OAuth platform API (`/api/oauth/v1`): Prism serves the documented examples; this layer adds what the service does
// around them: bearer tokens (the sandbox's own, with their scopes and lifetime, or any other as a grant of every scope),
// request bodies checked against the description, idempotent writes, cursor lists, the per-token rate limit, magic
// tokens and ids, and injected faults.

type Rules = (typeof operations)[keyof typeof operations] & {
  security?: readonly string[];
  idempotencyKey?: { required: boolean; minLength?: number; maxLength?: number };
};

/** Tokens with a meaning in the sandbox (README: "Platform"). Any other non-empty token is a valid grant. */
export const platformTokens = {
  /** The company's subscription is inactive: resource calls answer 402 `subscription_required`. */
  noSubscription: "sandbox_no_subscription",
  /** The grant lacks the scope an operation needs: 403 `insufficient_scope` with a challenge. */
  insufficientScope: "sandbox_insufficient_scope",
  /** A grant that is never allowed the call (a test-mode grant, a policy block): 403 `forbidden`, without a challenge. */
  forbidden: "sandbox_forbidden",
  /** An expired or revoked token: 401 `unauthorized` with a challenge. */
  expired: "sandbox_expired",
  /** The token's whole rate limit spent in this one call: 429 `rate_limited` with the bucket's Retry-After. */
  rateLimited: "sandbox_rate_limited",
} as const;

/** Ids with a meaning in the sandbox's paths (`/webhooks/{id}/deliveries`, `/invoices/{id}/send`, …). */
export const platformIds = {
  /** An unknown id (or another company's): 404 `not_found` where the operation documents it. */
  notFound: "notfound",
  /** A list with no items: `data: []`, `hasMore: false`, `nextCursor: null`. */
  empty: "empty",
} as const;

/** The resource limit of `x-rate-limits` (per client and company pair): counted per token in the sandbox. */
const resourceRequestsPerMinute = statedPerMinute(rateLimits, "resource");
const maxBodyBytes = 1024 * 1024;

function failure(status: number, code: string, message: string, id: string, headers: Record<string, string> = {}, meta?: object): SurfaceResponse {
  return json(status, { error: { code, message, requestId: id, ...(meta ? { meta } : {}) } }, headers);
}

/**
 * The scope an operation needs: not shown per operation, so derived from its tag and method (a sandbox choice), and
 * only where that names a documented scope (`webhooks` is no scope area: any grant may call them).
 */
function scopeOf(operation: PrismOperation): string | undefined {
  const area = operation.tags?.[0]?.name.toLowerCase() ?? "";
  const scope = `${area}:${operation.method.toLowerCase() === "get" ? "read" : "write"}`;
  return knownScopes.has(scope) ? scope : undefined;
}

/** A list operation: it takes `cursor` and `limit` (reference 4.5), with `limit`'s documented default and maximum. */
function listPaging(operation: PrismOperation): { default: number; maximum: number } | undefined {
  const query = operation.request?.query ?? [];
  const limit = query.find((parameter) => parameter.name === "limit")?.schema as { default?: number; maximum?: number } | undefined;
  if (!query.some((parameter) => parameter.name === "cursor") || limit?.default === undefined || limit.maximum === undefined) return undefined;
  return { default: limit.default, maximum: limit.maximum };
}

export async function createPlatformSurface(options: PrismSurfaceOptions): Promise<Surface> {
  const engine = await createEngine(options.description);
  const { clock, faults } = options.sandbox;
  const route = operationRouter(engine);
  const buckets = new Buckets(options.requestsPerMinute ?? resourceRequestsPerMinute, clock);
  if (idempotencyRetentionMs === null) throw new Error("the platform description states no x-idempotency-retention-seconds");
  const idempotent = new IdempotencyStore(idempotencyRetentionMs, clock);
  const protocol = createProtocol(options.seed, clock, exampleClientOf(engine.operations.get("authorizeClient"), engine.operations.get("requestToken")));
  const rulesOf = (operation: PrismOperation) => operations[(operation.iid ?? operation.id) as keyof typeof operations] as Rules | undefined;

  function challenge(origin: string, error: string, scope?: string): string {
    const metadata = `${origin}/.well-known/oauth-protected-resource/api/oauth/v1`;
    return `Bearer error="${error}"${scope ? `, scope="${scope}"` : ""}, resource_metadata="${metadata}"`;
  }

  /** A page of the list's seeded collection: `limit` items from the cursor on, `nextCursor` and `hasMore`. */
  function listPage(operation: PrismOperation, request: SurfaceRequest, paging: { default: number; maximum: number }, id: string, headers: Record<string, string>) {
    const owner = request.path.split("/")[2] ?? "";
    const identity = [options.seed, operation.path, owner];
    const size = owner === platformIds.empty ? 0 : pick(1, Math.floor(3.5 * paging.default), ...identity, "size");
    const limit = Number(request.query?.get("limit") ?? paging.default);
    const cursor = request.query?.get("cursor");
    const offset = cursor === null || cursor === undefined ? 0 : decodeCursor(cursor, ...identity)?.page;
    if (offset === undefined || offset > size) {
      // Not shown in the reference: the sandbox refuses a cursor it did not issue for this list (a sandbox choice).
      return failure(400, "invalid_request", "cursor is not one this list issued: pass nextCursor back verbatim.", id, headers, { field: "cursor" });
    }
    const end = Math.min(size, offset + limit);
    // The fields of an item are not shown in the reference: each is an object the sandbox puts no field in.
    const data = Array.from({ length: end - offset }, () => ({}));
    const hasMore = end < size;
    return json(200, { data, nextCursor: hasMore ? encodeCursor({ page: end }, ...identity) : null, hasMore }, headers);
  }

  /** The documented response of `status` (an injected fault), in this surface's terms: its id, challenge, limits. */
  async function faulted(operation: PrismOperation, status: number, id: string, origin: string, headers: Record<string, string>, bucket?: ReturnType<Buckets["get"]>) {
    const served = await engine.answer(operation, { headers: { accept: "application/json" }, body: undefined }, { code: status, dynamic: false });
    if (!served.ok) throw new Error(`Prism could not serve ${status} of ${operation.iid}: ${served.detail}`);
    const body = served.body as { error?: unknown } | undefined;
    const envelope = typeof body?.error === "object" && body.error !== null ? (body.error as { code?: string }) : undefined;
    const extra: Record<string, string> = {};
    if (envelope?.code === "unauthorized") extra["WWW-Authenticate"] = challenge(origin, "invalid_token", scopeOf(operation));
    if (envelope?.code === "insufficient_scope") extra["WWW-Authenticate"] = challenge(origin, "insufficient_scope", scopeOf(operation));
    if (status === 429 && bucket) extra["Retry-After"] = String(bucket.state().retryAfter);
    const answer = envelope ? { ...body, error: { ...envelope, requestId: id } } : body;
    return json(status, answer ?? {}, { "Content-Type": served.contentType, ...headers, ...extra });
  }

  const invalid = (problem: BodyProblem, id: string, headers: Record<string, string>) =>
    failure(400, "invalid_request", problem.message, id, headers, { ...(problem.field === undefined ? {} : { field: problem.field }), reason: problem.reason });

  /**
   * The body in the operation's documented media type. A form endpoint reads its parameters from a form body only: no body,
   * or a body of another type, is a form without parameters (so a missing one is named, RFC 6749 §5.2 `invalid_request`).
   */
  function bodyOf(operation: PrismOperation, rules: Rules, request: SurfaceRequest): ReturnType<typeof readBody> {
    // An operation that documents no body reads none.
    if (!operation.request?.body) return { ok: true, body: undefined };
    const content = operation.request.body.contents?.[0];
    const mediaType = content?.mediaType ?? "application/json";
    const sent = header(request.headers["content-type"])?.split(";")[0]?.trim().toLowerCase();
    const raw = mediaType === formMediaType ? ((sent === formMediaType ? request.body : undefined) ?? Buffer.alloc(0)) : request.body;
    return readBody(raw, { validate: validateRequest, operationId: rules.operationId, mediaType, schema: content?.schema as Schema | undefined });
  }

  async function answer(request: SurfaceRequest, id: string, record: AnswerRecord): Promise<SurfaceResponse> {
    const operation = route(request.method, request.path, request.basePath);
    if (operation === undefined) return failure(404, "not_found", `No operation at ${request.path}.`, id);
    if (operation === "method") return failure(404, "not_found", `${request.method} ${request.path} is not an operation.`, id);
    const rules = rulesOf(operation);
    if (!rules) throw new Error(`the operation table has no ${operation.iid}`);
    record.operation = rules.operationId;
    const origin = originOf(request.headers);
    const fault = () => faults.take("platform", rules.operationId);

    if (rules.security?.length === 0) {
      // A protocol endpoint: no bearer token, and no limits (theirs are not shown). Its examples are served even in
      // dynamic mode: the bodies' schemas are open, and a generated one would be no token or metadata a client can use.
      const parsed = bodyOf(operation, rules, request);
      if (!parsed.ok) return protocol.refuseBody(rules.operationId, parsed.problem);
      const injected = fault();
      await clock.sleep(injected?.latencyMs ?? 0);
      if (injected?.status !== undefined) return faulted(operation, injected.status, id, origin, {});
      const documented = () => documentedSuccess(engine, operation, parsed.body, false, options.seed);
      return protocol.answer(rules.operationId, request, parsed.body, documented, queryProblem(operation, request.query));
    }

    const [scheme, ...rest] = (header(request.headers.authorization) ?? "").trim().split(/\s+/);
    const token = scheme?.toLowerCase() === "bearer" ? rest.join(" ") : "";
    const issued = token ? protocol.issued(token) : undefined;
    const dead =
      token === platformTokens.expired || (issued && (issued.kind !== "access" || issued.revoked || clock.now() >= issued.expiresAt)) || protocol.forgotten(token);
    if (!token || dead) {
      const message = token ? "The access token has expired or was revoked: re-authenticate." : "An access token is required: send Authorization: Bearer <ACCESS_TOKEN>.";
      return failure(401, "unauthorized", message, id, { "WWW-Authenticate": challenge(origin, "invalid_token", scopeOf(operation)) });
    }
    const bucket = buckets.get(token);
    if (token === platformTokens.rateLimited) bucket.drain();
    if (!bucket.take()) {
      const retryAfter = String(bucket.state().retryAfter);
      return failure(429, "rate_limited", `Rate limit exceeded. Retry after ${retryAfter} seconds.`, id, { "Retry-After": retryAfter, ...rateLimitHeaders(bucket) });
    }
    const limits = rateLimitHeaders(bucket);
    if (token === platformTokens.noSubscription) return failure(402, "subscription_required", "The company's subscription is inactive.", id, limits);
    if (token === platformTokens.forbidden) return failure(403, "forbidden", "This grant is never allowed this call.", id, limits);
    const scope = scopeOf(operation);
    if (token === platformTokens.insufficientScope || (issued && scope && !issued.scopes.includes(scope))) {
      const needed = scope ?? `${operation.tags?.[0]?.name ?? "settings"}:${operation.method.toLowerCase() === "get" ? "read" : "write"}`;
      return failure(403, "insufficient_scope", `The access token lacks the ${needed} scope: re-authorize with it.`, id, {
        ...limits,
        "WWW-Authenticate": challenge(origin, "insufficient_scope", needed),
      }, { scope: needed });
    }

    // A query parameter beyond its documented range: 400 `invalid_request` (the code is a sandbox choice, as for the key).
    const problem = queryProblem(operation, request.query);
    if (problem) return failure(400, "invalid_request", problem, id, limits);
    const parsed = bodyOf(operation, rules, request);
    if (!parsed.ok) return invalid(parsed.problem, id, limits);
    if (request.path.split("/").includes(platformIds.notFound) && operation.responses.some((response) => response.code === "404")) {
      return failure(404, "not_found", "No such resource.", id, limits);
    }
    let slot: string | undefined;
    const fingerprint = IdempotencyStore.fingerprint(request.body);
    if (rules.idempotencyKey) {
      // The reference says "missing gives 400" without its code: `invalid_request` is a sandbox choice.
      const key = checkIdempotencyKey(rules.idempotencyKey, header(request.headers["idempotency-key"]));
      if (!key.ok) return failure(400, "invalid_request", key.message, id, limits, { field: "Idempotency-Key" });
      slot = key.key === undefined ? undefined : `${token}\n${operation.method} ${request.path}\n${key.key}`;
      const previous = slot === undefined ? undefined : idempotent.find(slot, fingerprint);
      if (previous?.kind === "conflict") return failure(409, "idempotency_conflict", "This Idempotency-Key was used with a different body.", id, limits);
      if (previous?.kind === "replay") return { ...previous.response, headers: { ...previous.response.headers, ...limits, "Idempotent-Replayed": "true" } };
    }

    const injected = fault();
    await clock.sleep(injected?.latencyMs ?? 0);
    // A fault is not stored under an Idempotency-Key: the write did not happen.
    if (injected?.status !== undefined) return faulted(operation, injected.status, id, origin, limits, bucket);
    const paging = listPaging(operation);
    if (paging) return listPage(operation, request, paging, id, limits);
    const served = await documentedSuccess(engine, operation, parsed.body, options.dynamic, `${options.seed}:${request.path}:${fingerprint}`);
    const response = json(served.status, served.body, { "Content-Type": served.contentType, ...limits });
    // A write whose answer the sandbox cannot keep does not happen: a replay could not find it (a sandbox limit).
    if (slot !== undefined && !idempotent.store(slot, token, fingerprint, response)) {
      const retryAfter = String(idempotent.secondsUntilRoom());
      return failure(429, "rate_limited", idempotencyFull, id, { ...limits, "Retry-After": retryAfter });
    }
    return response;
  }

  return {
    maxBodyBytes,
    tooLarge: () => failure(413, "invalid_request", `Request body exceeds the ${maxBodyBytes / 1024} KB sandbox limit.`, requestId(clock.now())),
    busy: (message, retryAfterSeconds) => failure(429, "rate_limited", message, requestId(clock.now()), { "Retry-After": String(retryAfterSeconds) }),
    handle: answerAll(clock, answer, (id) => failure(500, "internal", "The sandbox failed to answer this request; see its log.", id)),
    reset(credential) {
      buckets.reset(credential);
      idempotent.reset(credential);
      if (credential === undefined) protocol.reset();
    },
    statuses: (operationId) => engine.operations.get(operationId)?.responses.map((response) => response.code),
  };
}
