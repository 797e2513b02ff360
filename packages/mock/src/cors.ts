import type { IncomingHttpHeaders } from "node:http";
import type { SurfaceResponse } from "./http.js";

// Cross-origin requests, a sandbox choice (the service's CORS policy is not shown in the reference): any page may call
// the sandbox from a browser, on every surface, preflights included, and read every header an answer carries (the
// `X-Scraper-*` and `X-RateLimit-*` headers, `Retry-After`, `WWW-Authenticate`, …). The docs' "try it" console sends
// its requests from the reader's browser to a sandbox started on their machine. The control API is no surface: it
// answers no other origin and no preflight, and its answers carry none of these headers (`control/guard.ts`).

// Headers a browser shows a page without being told (the CORS-safelisted response headers).
const safelisted = new Set(["cache-control", "content-language", "content-length", "content-type", "expires", "last-modified", "pragma"]);

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The answer to a CORS preflight (`OPTIONS` with `Access-Control-Request-Method`), or `undefined` for any other request. */
export function preflight(method: string, headers: IncomingHttpHeaders): SurfaceResponse | undefined {
  const requested = first(headers["access-control-request-method"]);
  if (method !== "OPTIONS" || !requested || !headers.origin) return undefined;
  const allowHeaders = first(headers["access-control-request-headers"]);
  return {
    status: 204,
    headers: {
      "Access-Control-Allow-Methods": requested,
      ...(allowHeaders ? { "Access-Control-Allow-Headers": allowHeaders } : {}),
      "Access-Control-Max-Age": "600",
      Vary: "Access-Control-Request-Method, Access-Control-Request-Headers",
    },
    body: "",
  };
}

// The CORS headers by the names of an answer's headers: answers come in a few shapes (the sandbox names every header it
// sends), so each set of names is worked out once. A cap keeps it finite all the same.
const byNames = new Map<string, Readonly<Record<string, string>>>();
const maxShapes = 1_000;

/** The CORS headers of an answer: any origin, and every header of the answer readable by the page. Not to be changed. */
export function corsHeaders(answer: SurfaceResponse): Readonly<Record<string, string>> {
  const names = Object.keys(answer.headers);
  const key = names.join("\n");
  const known = byNames.get(key);
  if (known) return known;
  const exposed = names.filter((name) => !safelisted.has(name.toLowerCase()) && !name.toLowerCase().startsWith("access-control-"));
  const headers = Object.freeze({ "Access-Control-Allow-Origin": "*", ...(exposed.length ? { "Access-Control-Expose-Headers": exposed.join(", ") } : {}) });
  if (byNames.size < maxShapes) byNames.set(key, headers);
  return headers;
}
