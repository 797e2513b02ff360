import { describe, expect, it } from "vitest";
import { operationTable, renderOperationTable } from "../src/operation-table.js";

const document = {
  openapi: "3.1.0",
  "x-rate-limit": { requestsPerMinute: 120, burstSeconds: 60, refill: "continuous", scope: "account" },
  "x-request-body-limit": { maxBytes: 32768 },
  "x-timeout-seconds": 60,
  paths: {
    "/scrape/videosite/posts": {
      post: {
        operationId: "videositePosts",
        tags: ["videosite"],
        "x-credits": { standard: 1, accountRate: true },
        "x-timeout-seconds": 90,
        "x-typical-duration-seconds": { min: 15, max: 45 },
        "x-paging": { mode: "cursor", request: "cursor", response: "next_cursor", pageSize: { max: 30, exact: true } },
        "x-unknown-fields": "ignore",
        requestBody: { $ref: "#/components/requestBodies/Posts" },
        responses: { "200": { description: "ok", "x-billing": "billed" }, "404": { $ref: "#/components/responses/NotFound" } },
      },
    },
    "/webhooks": { get: { operationId: "listWebhooks", responses: { "200": { description: "ok" } } } },
  },
  components: {
    requestBodies: { Posts: { required: true, content: {} } },
    responses: { NotFound: { description: "gone", "x-billing": "billed" } },
    schemas: {
      ErrorCode: {
        enum: ["A"],
        "x-error-codes": { A: { status: null, billing: "refunded", retry: "retry-after" } },
        "x-retry-backoff": { scheduleSeconds: [30, 60], capSeconds: 300, jitter: true },
      },
    },
    securitySchemes: {
      Key: { type: "apiKey", in: "header", name: "x-api-key", "x-key-prefix": "scrape_live_" },
      OAuth: { type: "oauth2", flows: {} },
    },
  },
};

describe("the operation table", () => {
  const table = operationTable(document);

  it("reads each operation's rules from its vendor extensions, following $refs", () => {
    expect(table.operations.videositePosts).toEqual({
      operationId: "videositePosts",
      method: "POST",
      path: "/scrape/videosite/posts",
      platform: "videosite",
      resource: "posts",
      tag: "videosite",
      credits: { standard: 1, accountRate: true },
      timeoutMs: 90_000,
      paging: { mode: "cursor", request: "cursor", response: "next_cursor", pageSize: { max: 30, exact: true } },
      requestBodyRequired: true,
      billing: { "200": "billed", "404": "billed" },
    });
  });

  it("keeps what only the service does (durations, unknown fields, enrichment) apart from what a client acts on", () => {
    expect(table.operationBehaviour).toEqual({ videositePosts: { typicalDurationMs: { min: 15_000, max: 45_000 }, unknownFields: "ignore" } });
  });

  it("states nothing the description does not", () => {
    expect(table.operations.listWebhooks).toEqual({
      operationId: "listWebhooks",
      method: "GET",
      path: "/webhooks",
      requestBodyRequired: false,
      billing: {},
    });
  });

  it("reads the error codes, backoff, default rate and keys", () => {
    expect(table.errorCodes).toEqual({ A: { status: null, billing: "refunded", retry: "retry-after" } });
    expect(table.retryBackoff).toEqual({ scheduleSeconds: [30, 60], capSeconds: 300, jitter: true });
    expect(table.rateLimit?.requestsPerMinute).toBe(120);
    expect(table.requestBodyLimit).toBe(32768);
    expect(table.defaultTimeoutMs).toBe(60_000);
    expect(table.apiKeys).toEqual({ Key: { in: "header", name: "x-api-key", keyPrefix: "scrape_live_" } });
    expect(table.rateLimits).toBeNull();
    expect(table.idempotencyRetentionMs).toBeNull();
    expect(table.oauth).toEqual({ OAuth: { flows: {} } });
  });

  it("renders null without a const assertion", () => {
    const source = renderOperationTable(table);
    expect(source).toContain("export const rateLimits = null;");
    expect(source).not.toContain("null as const");
  });

  it("renders the focused operations (tagged `Focused: <platform>`) as a constant of their own", () => {
    const focused = {
      operationId: "videositeRegions",
      tags: ["Focused: videosite"],
      responses: { "200": { description: "ok", "x-billing": "billed" } },
    };
    const withFocused = structuredClone(document) as typeof document & { paths: Record<string, unknown> };
    withFocused.paths["/scrape/videosite/regions"] = { post: focused };
    const source = renderOperationTable(operationTable(withFocused));
    const dataOf = (name: string) => JSON.parse(new RegExp(`export const ${name} = (\\{[\\s\\S]*?\\n\\}) as const;`).exec(source)?.[1] ?? "null");
    expect(Object.keys(dataOf("operations"))).toEqual(["videositePosts", "listWebhooks"]);
    expect(Object.keys(dataOf("focusedOperations"))).toEqual(["videositeRegions"]);
    expect(source).toContain("export type OperationId = keyof typeof operations | keyof typeof focusedOperations;");
  });

  it("renders as an as-const module, deterministically", () => {
    const source = renderOperationTable(table);
    expect(source).toContain("export const operations = {");
    expect(source).toContain("} as const;");
    expect(renderOperationTable(operationTable(structuredClone(document)))).toBe(source);
  });
});

// The neighbouring surfaces' extensions: idempotency, per-operation security, rate limits, key environments and OAuth.
const neighbour = {
  openapi: "3.1.0",
  "x-idempotency-retention-seconds": 86400,
  "x-rate-limits": [
    { calls: "resource", requests: 600, periodSeconds: 60, per: ["client", "company"], window: "rolling" },
    { calls: "protocol", requests: null, periodSeconds: null, per: ["ip"], window: null },
  ],
  paths: {
    "/campaigns/{id}/analytics-history": {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      post: {
        operationId: "createCampaignAnalyticsHistory",
        "x-idempotency": "required",
        parameters: [{ $ref: "#/components/parameters/LongKey" }],
        responses: {},
      },
    },
    "/invoices/{id}/send": {
      parameters: [{ name: "Idempotency-Key", in: "header", required: false, schema: { type: "string" } }],
      post: { operationId: "sendInvoice", "x-idempotency": "recommended", responses: {} },
    },
    "/token": { post: { operationId: "requestToken", security: [{}, { ClientSecretBasic: [] }], responses: {} } },
    "/register": { post: { operationId: "registerClient", security: [], responses: {} } },
    "/me": { get: { operationId: "me", security: [{ OAuth2: ["a:read"] }, { OAuth2: [], Key: [] }], responses: {} } },
    "/.well-known/metadata": {
      servers: [{ url: "https://{host}" }, { url: "https://mirror.example" }],
      get: { operationId: "metadata", security: [], responses: {} },
      put: { operationId: "putMetadata", servers: [{ url: "https://{host}/admin" }], responses: {} },
    },
  },
  components: {
    parameters: {
      LongKey: { name: "idempotency-key", in: "header", required: true, schema: { $ref: "#/components/schemas/Key" } },
    },
    schemas: { Key: { type: "string", minLength: 8, maxLength: 200 } },
    securitySchemes: {
      ConnectApiKey: {
        type: "apiKey",
        in: "header",
        name: "x-api-key",
        "x-key-environments": { sk_live_: "production", sk_test_: "sandbox" },
        "x-rejected-key-prefixes": { scrape_live_: "scraper" },
      },
      OAuth2: {
        type: "oauth2",
        "x-sensitive-scopes": ["payouts:write"],
        "x-access-token": { format: "jwt", profile: "RFC 9068", expiresInSeconds: 3600, boundTo: "company" },
        flows: {
          authorizationCode: {
            authorizationUrl: "/authorize",
            tokenUrl: "/token",
            refreshUrl: "/token",
            "x-pkce": { required: true, methods: ["S256"] },
            scopes: { "a:read": "A", "payouts:write": "P" },
          },
          clientCredentials: { tokenUrl: "/token", scopes: { "a:read": "A" } },
        },
      },
    },
  },
};

describe("the neighbouring surfaces' extensions", () => {
  const table = operationTable(neighbour);

  it("reads x-idempotency and the Idempotency-Key header's requiredness and length limits, following $refs", () => {
    expect(table.operations.createCampaignAnalyticsHistory).toMatchObject({
      idempotency: "required",
      idempotencyKey: { required: true, minLength: 8, maxLength: 200 },
    });
    // A path-level header counts; no limits are invented where the schema has none.
    expect(table.operations.sendInvoice).toMatchObject({ idempotency: "recommended", idempotencyKey: { required: false } });
    expect(table.operations.sendInvoice?.idempotencyKey).toEqual({ required: false });
    expect(table.operations.requestToken).not.toHaveProperty("idempotency");
    expect(table.operations.requestToken).not.toHaveProperty("idempotencyKey");
  });

  it("reads how long idempotency keys are kept, in milliseconds", () => {
    expect(table.idempotencyRetentionMs).toBe(86_400_000);
  });

  it("reads an operation's own security: [] for none (or an empty alternative), scheme names otherwise, absent when inherited", () => {
    expect(table.operations.registerClient?.security).toEqual([]);
    expect(table.operations.requestToken?.security).toEqual([]);
    expect(table.operations.me?.security).toEqual(["OAuth2", "Key"]);
    expect(table.operations.sendInvoice).not.toHaveProperty("security");
  });

  it("reads an operation's own server: the operation's servers over its path item's, absent when inherited", () => {
    expect(table.operations.metadata?.server).toBe("https://{host}");
    expect(table.operations.putMetadata?.server).toBe("https://{host}/admin");
    expect(table.operations.requestToken).not.toHaveProperty("server");
    expect(renderOperationTable(table)).toContain('"server": "https://{host}"');
  });

  it("reads x-rate-limits as data", () => {
    expect(table.rateLimits).toEqual(neighbour["x-rate-limits"]);
    expect(table.rateLimit).toBeNull();
  });

  it("reads x-key-environments beside the rejected prefixes", () => {
    expect(table.apiKeys.ConnectApiKey).toEqual({
      in: "header",
      name: "x-api-key",
      rejectedKeyPrefixes: { scrape_live_: "scraper" },
      keyEnvironments: { sk_live_: "production", sk_test_: "sandbox" },
    });
  });

  it("reads the oauth2 schemes: sensitive scopes, the access token, PKCE and each flow's URLs and scopes", () => {
    expect(table.oauth).toEqual({
      OAuth2: {
        sensitiveScopes: ["payouts:write"],
        accessToken: { format: "jwt", profile: "RFC 9068", expiresInSeconds: 3600, boundTo: "company" },
        flows: {
          authorizationCode: {
            authorizationUrl: "/authorize",
            tokenUrl: "/token",
            refreshUrl: "/token",
            pkce: { required: true, methods: ["S256"] },
            scopes: ["a:read", "payouts:write"],
          },
          clientCredentials: { tokenUrl: "/token", scopes: ["a:read"] },
        },
      },
    });
  });

  it("renders the new tables", () => {
    const source = renderOperationTable(table);
    expect(source).toContain("export const rateLimits = [");
    expect(source).toContain("export const oauth = {");
    expect(source).toContain('"idempotency": "required"');
  });
});
