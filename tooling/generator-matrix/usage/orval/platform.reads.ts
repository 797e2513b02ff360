// Every cursor page, every error body and every protocol response, read as the description types them, through orval's
// client (generated with `includeHttpResponseReturnType: false`, the workaround for its `2XX` status: spec/README.md). Its
// functions resolve the success body alone, so an error body is read as the description's response type for it.
import {
  type ErrorCode,
  type ErrorEnvelope,
  type ForbiddenResponse,
  getAuthorizationServerMetadata,
  type IdempotencyConflictResponse,
  listWebhookDeliveries,
  type MissingIdempotencyKeyResponse,
  type NotFoundResponse,
  type ProtocolErrorResponse,
  type RateLimitedResponse,
  registerClient,
  requestToken,
  revokeToken,
  type SubscriptionRequiredResponse,
  type TemporarilyUnavailableResponse,
  type UnauthorizedResponse,
  type UnlistedStatusErrorResponse,
} from "../../generated/orval/platform/index.ts";

/** A resource error, `{ error: { code, message, requestId, meta? } }`: branch on its code. */
function resourceFailure(body: ErrorEnvelope): string {
  const code: ErrorCode = body.error.code;
  return `${code}: ${body.error.message} (${body.error.requestId}) ${JSON.stringify(body.error.meta ?? {})}`;
}

/** Every resource error body the description documents. */
export const resourceFailures = (
  bodies: [
    UnauthorizedResponse,
    SubscriptionRequiredResponse,
    ForbiddenResponse,
    NotFoundResponse,
    IdempotencyConflictResponse,
    RateLimitedResponse,
    MissingIdempotencyKeyResponse,
    UnlistedStatusErrorResponse,
  ],
) => bodies.map(resourceFailure);

/** Every protocol error body (RFC 6749 §5.2), the endpoints' own 429 included. */
export const protocolFailures = (bodies: [ProtocolErrorResponse, TemporarilyUnavailableResponse]) =>
  bodies.map((body) => {
    const error: string = body.error;
    return `${error}: ${body.error_description ?? ""} ${body.error_uri ?? ""}`;
  });

export async function reads(): Promise<unknown[]> {
  // The cursor list: `nextCursor` on every page (null on the last), a string where `hasMore` is true.
  const page = await listWebhookDeliveries("wh_1", { limit: 100 });
  const next: string | null = page.nextCursor;
  const more: boolean = page.hasMore;
  const following: string | undefined = page.hasMore ? page.nextCursor : undefined;
  // @ts-expect-error the last page's nextCursor is null
  const always: string = page.nextCursor;

  // The protocol responses (RFC 6749 §5.1, RFC 7591 §3.2.1, RFC 8414 §2, RFC 7009 §2.2).
  const token = await requestToken({ grant_type: "client_credentials", scope: "posts:read" });
  const issued: [string, string, number | undefined, string | undefined, string | undefined] = [token.access_token, token.token_type, token.expires_in, token.refresh_token, token.scope];
  const registration = await registerClient({ client_name: "Acme", redirect_uris: ["https://app.example.test/cb"] });
  const client: [string, string | undefined, number | undefined, string[] | undefined] = [registration.client_id, registration.client_secret, registration.client_secret_expires_at, registration.redirect_uris];
  const metadata = await getAuthorizationServerMetadata();
  const server: [string, string, string, string[], string[] | undefined] = [metadata.issuer, metadata.authorization_endpoint, metadata.token_endpoint, metadata.response_types_supported, metadata.code_challenge_methods_supported];
  // RFC 7009 §2.2: a client ignores the body of a revocation.
  await revokeToken({ token: "rt_1", token_type_hint: "refresh_token" });
  // @ts-expect-error a revocation needs the token (RFC 7009 §2.1)
  await revokeToken({ token_type_hint: "refresh_token" });
  return [next, more, following, always, issued, client, server];
}
