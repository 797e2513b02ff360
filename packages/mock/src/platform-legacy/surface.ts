import { apiKeys, rateLimits } from "../generated/platform-legacy.operations.js";
import { type AnswerRecord, answerAll, json, type PrismSurfaceOptions, type Surface, type SurfaceResponse } from "../http.js";
import { createEngine } from "../scraper/engine.js";
import { Buckets, documentedSuccess, header, operationRouter, queryProblem, rateLimitHeaders, statedPerMinute } from "../surface-kit.js";

// The key-based platform API (`/api/v1`, deprecated), below the scraper's `/api/v1/scrape/`: a company key in
// `x-api-key`, `{ error }` bodies, and X-RateLimit-* headers on every response. Prism serves the documented examples.

/** Keys with a meaning in the sandbox (README: "Platform, key-based"). Any other company key is valid. */
export const legacyKeys = {
  /** A company key that is not (or no longer) valid: 401, though it looks like any other. */
  invalid: "company_invalid",
  /** No active subscription: every call answers 402. */
  noSubscription: "company_no_subscription",
  /** A key that is not allowlisted: every call answers 403 (restricted endpoint). */
  restricted: "company_restricted",
  /** The key's whole rate limit spent in this one call: 429 with the bucket's Retry-After. */
  rateLimited: "company_rate_limited",
} as const;

/** The id with a meaning in the sandbox's paths: an unknown post (404). */
export const legacyNotFoundId = "notfound";

/** The per-key limit of `x-rate-limits`; the higher one of allowlisted partners is not modelled. */
const requestsPerMinute = statedPerMinute(rateLimits, "all");
const maxBodyBytes = 1024 * 1024;
const scheme = apiKeys.CompanyApiKey;

export async function createLegacySurface(options: PrismSurfaceOptions): Promise<Surface> {
  const engine = await createEngine(options.description);
  const { clock, faults } = options.sandbox;
  const route = operationRouter(engine);
  const buckets = new Buckets(options.requestsPerMinute ?? requestsPerMinute, clock);
  // Unauthenticated answers carry the headers too ("on every response"): the state of a bucket nobody spends.
  const anonymous = new Buckets(options.requestsPerMinute ?? requestsPerMinute, clock).get("anonymous");

  async function answer(request: Parameters<Surface["handle"]>[0], _id: string, record: AnswerRecord): Promise<SurfaceResponse> {
    const operation = route(request.method, request.path, request.basePath);
    const operationId = operation === undefined || operation === "method" ? undefined : (operation.iid ?? operation.id);
    record.operation = operationId;
    const key = header(request.headers[scheme.name]);
    const rejected = key && Object.entries(scheme.rejectedKeyPrefixes).find(([prefix]) => key.startsWith(prefix));
    if (!key || rejected || key === legacyKeys.invalid) {
      const message = rejected
        ? `That is a ${rejected[1]} key, which the platform API does not accept: send a company API key.`
        : key
          ? "The API key is invalid or was revoked."
          : "A company API key is required in x-api-key.";
      return json(401, { error: message }, rateLimitHeaders(anonymous));
    }
    const bucket = buckets.get(key);
    if (key === legacyKeys.rateLimited) bucket.drain();
    if (!bucket.take()) {
      const retryAfter = String(bucket.state().retryAfter);
      return json(429, { error: `Rate limit exceeded. Retry after ${retryAfter} seconds.` }, { "Retry-After": retryAfter, ...rateLimitHeaders(bucket) });
    }
    const limits = rateLimitHeaders(bucket);
    if (key === legacyKeys.noSubscription) return json(402, { error: "An active subscription is required." }, limits);
    if (key === legacyKeys.restricted) return json(403, { error: "This endpoint is restricted to allowlisted partner accounts." }, limits);
    if (operation === undefined || operation === "method" || operationId === undefined) return json(404, { error: `No endpoint at ${request.method} ${request.path}.` }, limits);
    const problem = queryProblem(operation, request.query);
    if (problem) return json(400, { error: problem }, limits);
    if (request.path.split("/").includes(legacyNotFoundId)) return json(404, { error: "Not found." }, limits);
    const fault = faults.take("platformLegacy", operationId);
    await clock.sleep(fault?.latencyMs ?? 0);
    if (fault?.status !== undefined) {
      const served = await engine.answer(operation, { headers: { accept: "application/json" }, body: undefined }, { code: fault.status, dynamic: false });
      if (!served.ok) throw new Error(`Prism could not serve ${fault.status} of ${operationId}: ${served.detail}`);
      const retry: Record<string, string> = fault.status === 429 ? { "Retry-After": String(bucket.state().retryAfter) } : {};
      return json(fault.status, served.body, { "Content-Type": served.contentType, ...limits, ...retry });
    }
    const served = await documentedSuccess(engine, operation, undefined, options.dynamic, `${options.seed}:${request.path}`);
    return json(served.status, served.body, { "Content-Type": served.contentType, ...limits });
  }

  return {
    maxBodyBytes,
    tooLarge: () => json(413, { error: `Request body exceeds the ${maxBodyBytes / 1024} KB sandbox limit.` }),
    busy: (message, retryAfterSeconds) => json(429, { error: message }, { "Retry-After": String(retryAfterSeconds) }),
    handle: answerAll(clock, answer, () => json(500, { error: "The sandbox failed to answer this request; see its log." })),
    reset: (credential) => buckets.reset(credential),
    statuses: (operationId) => engine.operations.get(operationId)?.responses.map((response) => response.code),
  };
}
