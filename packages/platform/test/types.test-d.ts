import { describe, expectTypeOf, it } from "vitest";
import {
  createLegacyClient,
  createPlatformClient,
  type ErrorCode,
  type LegacyApiError,
  type PlatformApiError,
  type PlatformMeta,
  type SubscriptionRequiredError,
  type WebhookDelivery,
} from "../src/index.js";
import { type AuthorizationRequest, authorizationUrl, type OAuthServer, type TokenSet } from "../src/oauth.js";

const platform = createPlatformClient({ accessToken: "t", baseUrl: "https://api.example.com/api/oauth/v1" });

describe("the platform client's types come from the description", () => {
  it("types error codes from the ErrorCode enum", () => {
    expectTypeOf<PlatformApiError["code"]>().toEqualTypeOf<ErrorCode | undefined>();
    expectTypeOf<"subscription_required" | "insufficient_scope" | "idempotency_conflict">().toMatchTypeOf<ErrorCode>();
    // @ts-expect-error not a code the description knows
    expectTypeOf<"payment_required">().toMatchTypeOf<ErrorCode>();
    expectTypeOf<SubscriptionRequiredError["code"]>().toEqualTypeOf<"subscription_required">();
    expectTypeOf<LegacyApiError["code"]>().toEqualTypeOf<string | undefined>();
  });

  it("requires the Idempotency-Key on api where the description does", () => {
    platform.api.POST("/payouts/execute", { params: { header: { "Idempotency-Key": "k-1" } } });
    // @ts-expect-error the key is required on payout execute
    platform.api.POST("/payouts/execute", {});
    // @ts-expect-error and on the campaign analytics history
    platform.api.POST("/campaigns/{id}/analytics-history", { params: { path: { id: "c" } } });
    // optional (filled in) on the webhook test
    platform.api.POST("/webhooks/{id}/test", { params: { path: { id: "w" } } });
    // @ts-expect-error no such path
    platform.api.POST("/payouts", {});
  });

  it("convenience methods: open bodies, a typed page, an optional key", async () => {
    const payout = await platform.executePayout({ amount: 100, currency: "USD" }, { idempotencyKey: "payout-1" });
    expectTypeOf(payout.data).toEqualTypeOf<Record<string, unknown> | undefined>();
    expectTypeOf(payout.meta).toEqualTypeOf<PlatformMeta>();
    const page = await platform.listWebhookDeliveries("w", { limit: 10 });
    expectTypeOf(page.data.data).toEqualTypeOf<WebhookDelivery[]>();
    expectTypeOf(page.data.nextCursor).toEqualTypeOf<string | null>();
    expectTypeOf(platform.webhookDeliveries("w")).toEqualTypeOf<AsyncGenerator<WebhookDelivery>>();
    // @ts-expect-error the webhook id is required
    platform.testWebhook();
  });

  it("api: every page of a cursor list keeps nextCursor and hasMore through openapi-fetch's Readable", async () => {
    const page = await platform.api.GET("/webhooks/{id}/deliveries", { params: { path: { id: "w" } } });
    // openapi-fetch drops a property whose type is exactly `null`: the last page's `nextCursor` must not be one (spec/README.md).
    const next = page.data?.nextCursor;
    expectTypeOf(next).toEqualTypeOf<string | null | undefined>();
    expectTypeOf(page.data?.hasMore).toEqualTypeOf<boolean | undefined>();
    if (page.data?.hasMore) expectTypeOf(page.data.nextCursor).toEqualTypeOf<string>();
    // @ts-expect-error a last page has no cursor to pass back
    const always: string = page.data ? page.data.nextCursor : "";
    expectTypeOf(always).toEqualTypeOf<string>();
  });

  it("api: the protocol bodies are the RFCs' (RFC 6749 §5.1, RFC 8414 §2)", async () => {
    const token = await platform.api.POST("/token", { body: { grant_type: "client_credentials" } });
    if (token.data) {
      expectTypeOf(token.data.access_token).toEqualTypeOf<string>();
      expectTypeOf(token.data.expires_in).toEqualTypeOf<number | undefined>();
    }
    // @ts-expect-error a code exchange needs its code, redirect_uri and code_verifier
    await platform.api.POST("/token", { body: { grant_type: "authorization_code" } });
    // @ts-expect-error a grant type the description does not offer
    await platform.api.POST("/token", { body: { grant_type: "authorisation_code", code: "c", redirect_uri: "r", code_verifier: "v" } });
    const metadata = await platform.api.GET("/.well-known/oauth-authorization-server");
    if (metadata.data) expectTypeOf(metadata.data.token_endpoint).toEqualTypeOf<string>();
  });

  it("needs a base URL and a token source", () => {
    // @ts-expect-error baseUrl is required
    createPlatformClient({ accessToken: "t" });
    createPlatformClient({ getAccessToken: async () => "t", baseUrl: "https://h/api/oauth/v1" });
  });

  it("legacy: a company key", () => {
    const legacy = createLegacyClient({ apiKey: "k", baseUrl: "https://h/api/v1" });
    legacy.api.GET("/posts/{id}/metrics-history", { params: { path: { id: "p" } } });
    // @ts-expect-error apiKey is required
    createLegacyClient({ baseUrl: "https://h/api/v1" });
  });

  it("OAuth helpers resolve the classes that hide secrets", async () => {
    const request = await authorizationUrl({ server: {} as OAuthServer, clientId: "c", redirectUri: "https://app/cb", scope: "campaigns:read" });
    expectTypeOf(request).toEqualTypeOf<AuthorizationRequest>();
    expectTypeOf(request.codeVerifier).toEqualTypeOf<string>();
    expectTypeOf<TokenSet["refreshToken"]>().toEqualTypeOf<string | undefined>();
  });
});
