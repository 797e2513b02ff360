import { apiKeys, rateLimits } from "../generated/connect.operations.js";
import { type AnswerRecord, answerAll, json, type SandboxServices, type Surface, type SurfaceResponse } from "../http.js";
import { requestId } from "../request-id.js";
import { Buckets, header, rateLimitHeaders, statedPerMinute } from "../surface-kit.js";

// The connect API (`/api/embed`). The reference documents no path, so every authenticated request answers 404 in a
// sandbox envelope; what the sandbox does model is the key: its prefix selects the environment, a scraper key is refused,
// and the general limit (100 per minute) answers 429 with Retry-After.

export interface ConnectOptions {
  requestsPerMinute: number | undefined;
  sandbox: SandboxServices;
}

/** Key suffixes with a meaning in the sandbox, after either prefix (`sk_test_invalid`). Any other key is valid. */
export const connectKeySuffixes = {
  /** A key of the right shape that is not (or no longer) valid: 401. */
  invalid: "invalid",
  /** The key's whole rate limit spent in this one call: 429 with the bucket's Retry-After. */
  rateLimited: "ratelimited",
} as const;

/** The "general" limit of `x-rate-limits`, counted per key in the sandbox. */
const generalRequestsPerMinute = statedPerMinute(rateLimits, "general");
const maxBodyBytes = 1024 * 1024;
const scheme = apiKeys.ConnectApiKey;

/** The sandbox's envelope (connect's error body is not shown in the reference). */
function envelope(id: string, status: number, code: string, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): SurfaceResponse {
  return json(status, { error: { code, message, requestId: id, ...extra } }, headers);
}

export function createConnectSurface(options: ConnectOptions): Surface {
  const { clock } = options.sandbox;
  const buckets = new Buckets(options.requestsPerMinute ?? generalRequestsPerMinute, clock);

  async function answer(request: Parameters<Surface["handle"]>[0], id: string, _record: AnswerRecord): Promise<SurfaceResponse> {
    const key = header(request.headers[scheme.name]);
    const prefix = key && Object.keys(scheme.keyEnvironments).find((candidate) => key.startsWith(candidate) && key.length > candidate.length);
    const environment = prefix ? scheme.keyEnvironments[prefix as keyof typeof scheme.keyEnvironments] : undefined;
    if (!key || !prefix || !environment || key === `${prefix}${connectKeySuffixes.invalid}`) {
      const rejected = key && Object.entries(scheme.rejectedKeyPrefixes).find(([other]) => key.startsWith(other));
      const message = rejected
        ? `That is a ${rejected[1]} key, which connect routes do not accept: send sk_live_… or sk_test_….`
        : environment
          ? "The connect key is invalid or was revoked."
          : "A connect key (sk_live_… or sk_test_…) is required in x-api-key.";
      return envelope(id, 401, "unauthorized", message);
    }
    const bucket = buckets.get(key);
    if (key === `${prefix}${connectKeySuffixes.rateLimited}`) bucket.drain();
    const headers = { "X-Sandbox-Environment": environment };
    if (!bucket.take()) {
      const retryAfter = String(bucket.state().retryAfter);
      return envelope(id, 429, "rate_limited", `Rate limit exceeded. Retry after ${retryAfter} seconds.`, { environment }, { ...headers, "Retry-After": retryAfter, ...rateLimitHeaders(bucket) });
    }
    return envelope(id, 404, "not_found", `The sandbox documents no connect operation at ${request.method} ${request.path}.`, { environment }, { ...headers, ...rateLimitHeaders(bucket) });
  }

  return {
    maxBodyBytes,
    tooLarge: () => envelope(requestId(clock.now()), 413, "payload_too_large", `Request body exceeds the ${maxBodyBytes / 1024} KB sandbox limit.`),
    busy: (message, retryAfterSeconds) => envelope(requestId(clock.now()), 429, "rate_limited", message, {}, { "Retry-After": String(retryAfterSeconds) }),
    handle: answerAll(clock, answer, (id) => envelope(id, 500, "internal", "The sandbox failed to answer this request; see its log.")),
    reset: (credential) => buckets.reset(credential),
    // The reference documents no connect operation: no fault can name one.
    statuses: () => undefined,
  };
}
