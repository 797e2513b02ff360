import type { OAuthClient } from "./oauth-register.js";
import { refreshTokens, type Tokens } from "./oauth-tokens.js";

export interface Session {
  client: OAuthClient;
  tokens: Tokens;
}

/** The OAuth API's error envelope: `{ error: { code, message, requestId, meta? } }`. */
interface ErrorBody {
  code: string;
  message: string;
  requestId?: string;
  meta?: unknown;
}

export class PlatformApiError extends Error {
  readonly code: string;
  readonly requestId: string | undefined;
  readonly meta: unknown;
  /** On 401 and 403 insufficient_scope: the scope the WWW-Authenticate challenge names. */
  readonly scope: string | undefined;
  /** On 429: seconds to wait. */
  readonly retryAfter: number | undefined;

  constructor(
    readonly status: number,
    body: ErrorBody,
    headers: Headers,
  ) {
    super(body.message);
    this.code = body.code;
    this.requestId = body.requestId;
    this.meta = body.meta;
    this.scope = /scope="([^"]*)"/.exec(headers.get("www-authenticate") ?? "")?.[1];
    const retryAfter = Number(headers.get("retry-after") ?? Number.NaN);
    this.retryAfter = Number.isFinite(retryAfter) ? retryAfter : undefined;
  }
}

/** Calls `{oauth_base_url}` + `path` as the session's user. */
export async function platformFetch(session: Session, path: string, init: RequestInit = {}) {
  // Refresh shortly before the access token expires, rather than after a 401.
  const { refreshToken, expiresAt } = session.tokens;
  if (refreshToken && Date.now() > expiresAt - 60_000) {
    session.tokens = await refreshTokens(session.client, refreshToken);
  }
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${session.tokens.accessToken}`);
  const response = await fetch(`${session.client.baseUrl}${path}`, { ...init, headers });
  if (response.status === 204) return undefined;
  if (response.ok) return (await response.json()) as unknown;
  const { error } = (await response.json()) as { error: ErrorBody };
  // Callers branch on error.code, never on the message: unauthorized, insufficient_scope,
  // forbidden, not_found, subscription_required, idempotency_conflict, rate_limited, …
  throw new PlatformApiError(response.status, error, response.headers);
}
