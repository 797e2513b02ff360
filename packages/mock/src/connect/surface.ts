import { apiKeys, rateLimits } from "../generated/connect.operations.js";
import { json, type Surface, type SurfaceResponse } from "../http.js";
import { requestId } from "../request-id.js";
import { Buckets, header, rateLimitHeaders, statedPerMinute } from "../surface-kit.js";

// The connect API (`/api/embed`). The reference documents no path, so every authenticated request answers 404 in a
// sandbox envelope; what the sandbox does model is the key: its prefix selects the environment, a scraper key is refused,
// and the general limit (100 per minute) answers 429 with Retry-After.

export interface ConnectOptions {
  requestsPerMinute: number | undefined;
}

/** The "general" limit of `x-rate-limits`, counted per key in the sandbox. */
const generalRequestsPerMinute = statedPerMinute(rateLimits, "general");
const maxBodyBytes = 1024 * 1024;
const scheme = apiKeys.ConnectApiKey;

/** The sandbox's envelope (connect's error body is not shown in the reference). */
function envelope(status: number, code: string, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): SurfaceResponse {
  return json(status, { error: { code, message, requestId: requestId(), ...extra } }, headers);
}

export function createConnectSurface(options: ConnectOptions): Surface {
  const buckets = new Buckets(options.requestsPerMinute ?? generalRequestsPerMinute);

  function answer(request: Parameters<Surface["handle"]>[0]): SurfaceResponse {
    const key = header(request.headers[scheme.name]);
    const environment = key && Object.entries(scheme.keyEnvironments).find(([prefix]) => key.startsWith(prefix) && key.length > prefix.length)?.[1];
    if (!key || !environment) {
      const rejected = key && Object.entries(scheme.rejectedKeyPrefixes).find(([prefix]) => key.startsWith(prefix));
      const message = rejected ? `That is a ${rejected[1]} key, which connect routes do not accept: send sk_live_… or sk_test_….` : "A connect key (sk_live_… or sk_test_…) is required in x-api-key.";
      return envelope(401, "unauthorized", message);
    }
    const bucket = buckets.get(key);
    const headers = { "X-Sandbox-Environment": environment };
    if (!bucket.take()) {
      const retryAfter = String(bucket.state().retryAfter);
      return envelope(429, "rate_limited", `Rate limit exceeded. Retry after ${retryAfter} seconds.`, { environment }, { ...headers, "Retry-After": retryAfter, ...rateLimitHeaders(bucket) });
    }
    return envelope(404, "not_found", `The sandbox documents no connect operation at ${request.method} ${request.path}.`, { environment }, { ...headers, ...rateLimitHeaders(bucket) });
  }

  return {
    maxBodyBytes,
    tooLarge: () => envelope(413, "payload_too_large", `Request body exceeds the ${maxBodyBytes / 1024} KB sandbox limit.`),
    handle: async (request) => answer(request),
  };
}
