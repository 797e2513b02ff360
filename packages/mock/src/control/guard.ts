import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { json, type SurfaceResponse } from "../http.js";
import { header } from "../surface-kit.js";
import { SandboxControlError } from "./plane.js";

// Only the sandbox's owner drives its control API. A web page open in the owner's browser must not: it can send
// requests to a loopback port, so the control API answers no other origin (and no preflight), takes JSON bodies only
// (a `text/plain` or form POST needs no preflight), and answers only at the names it listens on (a page whose own name
// rebinds to 127.0.0.1 sends its name in Host). Beyond loopback, other machines reach it too: it then also wants a
// token. The surfaces are not guarded: they keep their open CORS, which the docs' try-it console needs.

/** Where the control API listens and what it asks for. */
export interface ControlAccess {
  /** The host names its Host header may give (`127.0.0.1`, `localhost`, `[::1]`, …). */
  names: ReadonlySet<string>;
  port: number;
  /** The token every call must carry (`Authorization: Bearer <token>`), or `undefined` where none is asked. */
  token: string | undefined;
}

/** The request as far as the guard reads it: before its body. */
export interface ControlHead {
  method: string;
  headers: IncomingHttpHeaders;
}

const tokenPattern = /^[A-Za-z0-9._~+/=-]{16,256}$/;

/** A token to ask for when none is given: 32 random bytes, base64url. */
export const newControlToken = () => randomBytes(32).toString("base64url");

/** Refuses a control token that could not travel in a header, or that is too short to guess at; never echoes it. */
export function checkControlToken(token: unknown): string {
  if (typeof token !== "string" || !tokenPattern.test(token)) {
    throw new SandboxControlError("controlToken", "controlToken must be 16 to 256 characters among A-Z, a-z, 0-9 and - . _ ~ + / =.");
  }
  return token;
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** The control API's own error answer: `{ error: { message, field? } }`, `field` naming what to fix. */
export const failure = (status: number, message: string, field?: string, headers: Record<string, string> = {}) =>
  json(status, { error: { message, ...(field === undefined ? {} : { field }) } }, headers);

const hostPattern = /^(?<name>[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(?<port>\d{1,5}))?$/;

/** The host name (lower-cased) and port a Host header gives; `undefined` for anything else (userinfo, a path, …). */
function hostAndPort(value: string | undefined): { name: string; port: number } | undefined {
  const groups = hostPattern.exec(value?.toLowerCase() ?? "")?.groups;
  return groups ? { name: groups.name as string, port: Number(groups.port ?? 80) } : undefined;
}

const foreign = "The control API answers only requests from its own origin, or from outside a browser.";

/** Whether a request carries a body: a declared length above 0, or a chunked one. */
const hasBody = (headers: IncomingHttpHeaders) => Number(headers["content-length"] ?? 0) > 0 || headers["transfer-encoding"] !== undefined;

/**
 * Why a call to the control API is refused, as the answer to send (the control API's own `{ error: { message, field } }`,
 * with no CORS header), or `undefined` when it may go on. Read before the body, so a refused body is never buffered.
 */
export function refusal(head: ControlHead, access: ControlAccess): SurfaceResponse | undefined {
  const { headers } = head;
  const named = hostAndPort(header(headers.host));
  if (!named || !access.names.has(named.name) || named.port !== access.port) {
    const names = [...access.names].map((name) => `${name}:${access.port}`).join(", ");
    return failure(403, `The control API answers only at ${names}, not at the Host this request names.`, "Host");
  }
  // A browser names the page's origin on every cross-origin request, and on POSTs; only the sandbox's own may drive it.
  const origin = header(headers.origin);
  if (origin !== undefined && origin.toLowerCase() !== `http://${named.name}${named.port === 80 ? "" : `:${named.port}`}`) {
    return failure(403, foreign, "Origin");
  }
  // Requests a browser makes without an Origin (an image, a navigation from another site) still say where they come from.
  const site = header(headers["sec-fetch-site"]);
  if (site !== undefined && site !== "same-origin" && site !== "none") {
    return failure(403, foreign, "Sec-Fetch-Site");
  }
  if (access.token !== undefined) {
    const [scheme, sent] = (header(headers.authorization) ?? "").trim().split(/\s+/);
    if (scheme?.toLowerCase() !== "bearer" || !sent || !timingSafeEqual(digest(sent), digest(access.token))) {
      return failure(401, "The control API wants the sandbox's control token (printed at start): send Authorization: Bearer <token>.", "Authorization", {
        "WWW-Authenticate": 'Bearer realm="content-scraper-mock control"',
      });
    }
  }
  const mediaType = header(headers["content-type"])?.split(";")[0]?.trim().toLowerCase();
  if ((hasBody(headers) || (head.method !== "GET" && head.method !== "HEAD")) && mediaType !== "application/json") {
    return failure(415, "The control API takes JSON bodies only: send Content-Type: application/json (with {} for a call without parameters).", "Content-Type", {
      "Accept-Post": "application/json",
    });
  }
  return undefined;
}
