/** Same-origin redirects followed within one attempt, at most; one more is a loop. */
export const maxRedirects = 5;

/** Why a redirect was not followed. Origins only: never a path or a query string, which may carry a secret. */
export interface RedirectRefusal {
  /** The redirect's status; 0 when it is not known (a browser's opaque redirect, or a custom fetch that followed it). */
  status: number;
  /** The origin the request was sent to: the configured base URL's (or, for an OAuth helper, the endpoint's). */
  fromOrigin: string;
  /** The origin the server redirected to; `undefined` when the `Location` could not be read. */
  toOrigin: string | undefined;
  /** `cross-origin`: a credential never leaves its origin; `too-many`: more than `maxRedirects`; `unreadable`: no usable target. */
  reason: "cross-origin" | "too-many" | "unreadable";
}

/** Where a followed redirect goes, and with which method, body and headers. */
export interface Hop {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | ArrayBuffer | undefined;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
// The headers that describe a body (fetch's "request-body-header names"): dropped with the body.
const bodyHeaders = new Set(["content-type", "content-encoding", "content-language", "content-location", "content-length"]);

/**
 * The redirect policy of every client (fetch runs with `redirect: "manual"`): `undefined` when `response` is not a
 * redirect to follow (not 301/302/303/307/308, or no `Location`), else the next hop, or the refusal.
 * - Only a target on the origin of the first request is followed: the description documents no redirect, so a
 *   credential (a key, a token, a client secret) never reaches another origin.
 * - 307 and 308 resend the same method and body (RFC 9110). 303 becomes a GET (a HEAD stays a HEAD) without the body
 *   and its headers. 301 and 302 also keep the method and body: RFC 9110 lets a client keep them, and fetch's rewrite of
 *   a POST into a GET would send every operation of these APIs (all POST on the scraper) to a method they do not serve.
 * - A browser's opaque redirect (no readable target) is refused.
 */
export function nextHop(response: Response, hop: Hop, origin: string, followed: number): Hop | RedirectRefusal | undefined {
  if (response.type === "opaqueredirect") return { status: response.status, fromOrigin: origin, toOrigin: undefined, reason: "unreadable" };
  if (!redirectStatuses.has(response.status)) return undefined;
  const location = response.headers.get("location");
  if (location === null) return undefined;
  let target: URL;
  try {
    target = new URL(location, hop.url);
  } catch {
    return { status: response.status, fromOrigin: origin, toOrigin: undefined, reason: "unreadable" };
  }
  if (target.origin !== origin) return { status: response.status, fromOrigin: origin, toOrigin: target.origin, reason: "cross-origin" };
  if (followed >= maxRedirects) return { status: response.status, fromOrigin: origin, toOrigin: target.origin, reason: "too-many" };
  if (response.status !== 303) return { ...hop, url: target.href };
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(hop.headers)) if (!bodyHeaders.has(name.toLowerCase())) headers[name] = value;
  return { url: target.href, method: hop.method === "HEAD" ? "HEAD" : "GET", headers, body: undefined };
}

/** Whether `nextHop` answered with a refusal rather than a hop. */
export function isRefusal(value: Hop | RedirectRefusal): value is RedirectRefusal {
  return "reason" in value;
}

/** What a refused redirect's error says: both origins and why, never a path, a query or a credential. */
export function describeRefusal(name: string, refusal: RedirectRefusal): string {
  const redirected = `${name}: the server at ${refusal.fromOrigin} redirected${refusal.status ? ` (${refusal.status})` : ""} to ${refusal.toOrigin ?? "a location that cannot be read"}`;
  switch (refusal.reason) {
    case "cross-origin":
      return `${redirected}, another origin: refused, so that the credential never leaves ${refusal.fromOrigin}`;
    case "too-many":
      return `${redirected} after ${maxRedirects} redirects already: refused as a loop`;
    default:
      return `${redirected}: refused`;
  }
}
