import { createHash, randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { json, type SurfaceRequest, type SurfaceResponse } from "../http.js";
import { header, remember } from "../surface-kit.js";

// The OAuth protocol endpoints, as an OAuth client (oauth4webapi) needs them: discovery that names the host it was asked
// on, registration that reflects its request, and authorization codes bound to their PKCE challenge, client and
// redirect_uri. The reference shows none of these details: RFC 8414, 7591, 6749 and 7636 fill them (README: choices).

/** Prism's documented success of the operation: its example. */
export type Documented = () => Promise<{ status: number; contentType: string; body: unknown }>;

/** The origin a request came to: the issuer, and the host of every URL the sandbox hands out. */
export function originOf(headers: IncomingHttpHeaders): string {
  return `http://${header(headers.host) ?? "127.0.0.1"}`;
}

interface Grant {
  clientId: string;
  redirectUri: string;
  challenge: string;
  used: boolean;
}

// Codes do not expire in the sandbox; it keeps at most this many, the oldest forgotten first.
const maxCodes = 100_000;
/** The registration metadata an answer reflects, as sent. */
const reflected = ["client_name", "redirect_uris", "grant_types", "response_types"];

const protocolError = (status: number, error: string, description: string) => json(status, { error, error_description: description });
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The protocol endpoints of one sandbox: `answer(operationId, …)` for every operation with `security: []`. */
export function createProtocol(seed: string) {
  const codes = new Map<string, Grant>();

  /**
   * The sandbox consents at once: a trusted-looking request redirects to `redirect_uri` with a fresh `code`, the `state`
   * and `iss`. Without `client_id` or `redirect_uri` the error cannot be redirected: the documented HTML error page.
   */
  function authorize(query: URLSearchParams, issuer: string): SurfaceResponse {
    const clientId = query.get("client_id");
    const redirectUri = query.get("redirect_uri");
    let target: URL | undefined;
    try {
      target = redirectUri ? new URL(redirectUri) : undefined;
    } catch {
      target = undefined;
    }
    if (!clientId || !redirectUri || !target) {
      const page = "<!DOCTYPE html>\n<html lang=\"en\">\n  <head><title>Authorization error</title></head>\n  <body>\n    <h1>Authorization error</h1>\n    <p>The client_id or redirect_uri cannot be trusted.</p>\n  </body>\n</html>\n";
      return { status: 400, headers: { "Content-Type": "text/html; charset=utf-8" }, body: page };
    }
    const challenge = query.get("code_challenge");
    if (query.get("code_challenge_method") !== "S256" || !challenge) {
      target.searchParams.set("error", "invalid_request");
      target.searchParams.set("error_description", "PKCE with code_challenge_method=S256 is required.");
    } else {
      const code = `sandbox_code_${randomBytes(18).toString("base64url")}`;
      remember(codes, code, { clientId, redirectUri, challenge, used: false }, maxCodes);
      target.searchParams.set("code", code);
    }
    const state = query.get("state");
    if (state !== null) target.searchParams.set("state", state);
    target.searchParams.set("iss", issuer);
    return { status: 302, headers: { Location: target.toString() }, body: "" };
  }

  /** Why an authorization code exchange fails (`invalid_grant`), or undefined when the code, client and verifier agree. */
  function redeem(form: URLSearchParams, clientId: string | undefined): string | undefined {
    const grant = codes.get(form.get("code") ?? "");
    if (!grant) return "The authorization code is unknown.";
    if (grant.used) return "The authorization code was already used.";
    grant.used = true; // One exchange per code, whether it succeeds or not.
    if (grant.clientId !== clientId) return "The authorization code was issued to another client.";
    if (grant.redirectUri !== form.get("redirect_uri")) return "redirect_uri differs from the one of the authorization request.";
    const verifier = form.get("code_verifier") ?? "";
    if (createHash("sha256").update(verifier).digest("base64url") !== grant.challenge) return "code_verifier does not match the code_challenge (S256).";
    return undefined;
  }

  async function token(request: SurfaceRequest, documented: Documented): Promise<SurfaceResponse> {
    const form = formOf(request);
    const grantType = form.get("grant_type");
    if (grantType === "authorization_code") {
      const problem = redeem(form, clientIdOf(request, form));
      if (problem) return protocolError(400, "invalid_grant", problem);
    } else if (grantType !== "refresh_token" && grantType !== "client_credentials") {
      return protocolError(400, "unsupported_grant_type", "grant_type must be authorization_code, refresh_token or client_credentials, in a form body.");
    }
    return answerOf(await documented());
  }

  return async function answer(operationId: string, request: SurfaceRequest, body: unknown, documented: Documented): Promise<SurfaceResponse> {
    const origin = originOf(request.headers);
    switch (operationId) {
      case "authorizeClient":
        return authorize(request.query ?? new URLSearchParams(), origin);
      case "getAuthorizationServerMetadata":
        return metadataAt(origin, await documented());
      case "registerClient":
        return register(body, seed);
      case "requestToken":
        return token(request, documented);
      default:
        return answerOf(await documented());
    }
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

/** RFC 7591's 201, reflecting the metadata sent, with a client_id that follows from the seed and that metadata. */
function register(body: unknown, seed: string): SurfaceResponse {
  const metadata = Object.fromEntries(Object.entries(isObject(body) ? body : {}).filter(([name]) => reflected.includes(name)));
  const clientId = `sandbox_client_${createHash("sha256").update(`${seed}\n${JSON.stringify(metadata)}`).digest("hex").slice(0, 24)}`;
  return json(201, { client_id: clientId, ...metadata });
}

/** The form parameters (the description's media type); a body in another media type carries none. */
function formOf(request: SurfaceRequest): URLSearchParams {
  const form = /^application\/x-www-form-urlencoded\b/i.test(header(request.headers["content-type"]) ?? "");
  return new URLSearchParams(form ? request.body?.toString("utf8") : "");
}

/** The client: HTTP Basic (its id form-encoded, RFC 6749 §2.3.1), else `client_id` in the body (a public client). */
function clientIdOf(request: SurfaceRequest, form: URLSearchParams): string | undefined {
  const basic = /^Basic\s+(\S+)$/i.exec(header(request.headers.authorization) ?? "");
  if (!basic) return form.get("client_id") ?? undefined;
  const id = Buffer.from(basic[1] as string, "base64").toString("utf8").split(":")[0] as string;
  try {
    return decodeURIComponent(id.replace(/\+/g, "%20"));
  } catch {
    return undefined;
  }
}
