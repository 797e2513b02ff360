// Every cursor page, every error body and every protocol response, read as the description types them, through
// openapi-fetch (whose `Readable` drops a property typed exactly `null`: the last page must still have its nextCursor).
import createClient from "openapi-fetch";
import type { components, paths } from "../../generated/openapi-typescript/platform/index.ts";

const platform = createClient<paths>({ baseUrl: "https://platform.example.test/api/oauth/v1" });
type Schemas = components["schemas"];
const form = {
  bodySerializer: (body: unknown) => new URLSearchParams(body as Record<string, string>).toString(),
  headers: { "content-type": "application/x-www-form-urlencoded" },
};

/** A resource error, `{ error: { code, message, requestId, meta? } }`: branch on its code. */
function resourceFailure(body: Schemas["ErrorEnvelope"] | undefined): string | undefined {
  if (!body) return undefined;
  const code: Schemas["ErrorCode"] = body.error.code;
  return `${code}: ${body.error.message} (${body.error.requestId}) ${JSON.stringify(body.error.meta ?? {})}`;
}

/** A protocol error (RFC 6749 §5.2). */
function protocolFailure(body: Schemas["ProtocolError"] | undefined): string | undefined {
  if (!body) return undefined;
  const error: string = body.error;
  return `${error}: ${body.error_description ?? ""} ${body.error_uri ?? ""}`;
}

export async function reads(): Promise<unknown[]> {
  // The cursor list: `nextCursor` on every page (null on the last), a string where `hasMore` is true.
  const page = await platform.GET("/webhooks/{id}/deliveries", { params: { path: { id: "wh_1" }, query: { limit: 100 } } });
  resourceFailure(page.error);
  const next: string | null | undefined = page.data?.nextCursor;
  const more: boolean | undefined = page.data?.hasMore;
  const following: string | undefined = page.data?.hasMore ? page.data.nextCursor : undefined;
  // @ts-expect-error the last page's nextCursor is null
  const always: string | undefined = page.data?.nextCursor;

  // Every resource operation's error bodies.
  const path = { id: "id_1" };
  const key = (value: string) => ({ "Idempotency-Key": value });
  const failures = [
    resourceFailure((await platform.GET("/posts/{id}/metrics-history", { params: { path } })).error),
    resourceFailure((await platform.POST("/webhooks/{id}/test", { params: { path }, body: {} })).error),
    resourceFailure((await platform.POST("/payouts/execute", { params: { header: key("payout-1") }, body: {} })).error),
    resourceFailure((await platform.POST("/payouts/quick-pay", { params: { header: key("quick-pay-1") }, body: {} })).error),
    resourceFailure((await platform.POST("/invoices", { body: {} })).error),
    resourceFailure((await platform.POST("/invoices/{id}/send", { params: { path }, body: {} })).error),
    resourceFailure((await platform.POST("/invoices/{id}/void", { params: { path }, body: {} })).error),
    resourceFailure((await platform.POST("/campaigns/{id}/analytics-history", { params: { path, header: key("analytics-1") }, body: {} })).error),
  ];

  // The protocol responses (RFC 6749 §5.1, RFC 7591 §3.2.1, RFC 8414 §2, RFC 7009 §2.2) and their errors (RFC 6749 §5.2).
  const token = await platform.POST("/token", { body: { grant_type: "client_credentials", scope: "posts:read" }, ...form });
  protocolFailure(token.error);
  const issued: [string, string, number | undefined, string | undefined, string | undefined] | undefined =
    token.data && [token.data.access_token, token.data.token_type, token.data.expires_in, token.data.refresh_token, token.data.scope];
  const registration = await platform.POST("/register", { body: { client_name: "Acme", redirect_uris: ["https://app.example.test/cb"] } });
  protocolFailure(registration.error);
  const client: [string, string | undefined, number | undefined, string[] | undefined] | undefined =
    registration.data && [registration.data.client_id, registration.data.client_secret, registration.data.client_secret_expires_at, registration.data.redirect_uris];
  const metadata = await platform.GET("/.well-known/oauth-authorization-server");
  const server: [string, string, string, string[], string[] | undefined] | undefined =
    metadata.data && [metadata.data.issuer, metadata.data.authorization_endpoint, metadata.data.token_endpoint, metadata.data.response_types_supported, metadata.data.code_challenge_methods_supported];
  const revocation = await platform.POST("/revoke", { body: { token: "rt_1", token_type_hint: "refresh_token" }, ...form });
  protocolFailure(revocation.error);
  // @ts-expect-error a revocation needs the token (RFC 7009 §2.1)
  await platform.POST("/revoke", { body: { token_type_hint: "refresh_token" }, ...form });
  return [next, more, following, always, failures, issued, client, server];
}
