import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { type Api, apis, deref, type Header, loadBundle, operations, type Parameter, type Response, schemaValidator } from "./load.js";

// The facts of the reference's sections 4.5, 5.2, 7.2, 7.3, 8.3 and 9 about the three neighbouring surfaces, read back from
// the bundled descriptions, and the shapes of the extensions spec/extensions.md documents for them.

type Node = Record<string, unknown>;
const documents = Object.fromEntries(apis.map((api) => [api, loadBundle(api)])) as Record<Api, Node>;
const neighbours = ["platform", "platform-legacy", "connect"] as const;

const components = (api: Api) => documents[api].components as Record<string, Record<string, Node>>;
const schemas = (api: Api) => components(api).schemas ?? {};
const opsOf = (api: Api) => operations(documents[api]);
const byId = (api: Api, operationId: string) => {
  const found = opsOf(api).find(({ operation }) => operation.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId} in ${api}`);
  return found;
};
const response = (api: Api, operationId: string, status: string) => {
  const ref = byId(api, operationId).operation.responses[status];
  if (!ref) throw new Error(`${operationId} has no ${status}`);
  return deref<Response & Node>(documents[api], ref);
};
const headerOf = (api: Api, res: Response, name: string) => {
  const ref = res.headers?.[name];
  return ref === undefined ? undefined : deref<Header>(documents[api], ref);
};

// The extension values, as spec/extensions.md documents them.
const ajv = new Ajv({ allErrors: true });
const nullable = (schema: object) => ({ anyOf: [schema, { type: "null" }] });
const shapes = {
  "x-rate-limits": {
    type: "array",
    minItems: 1,
    items: {
      type: "object",
      additionalProperties: false,
      required: ["calls", "requests", "periodSeconds", "per", "window"],
      properties: {
        calls: { type: "string", minLength: 1 },
        requests: nullable({ type: "integer", minimum: 1 }),
        periodSeconds: nullable({ type: "integer", minimum: 1 }),
        per: nullable({ type: "array", minItems: 1, items: { type: "string", minLength: 1 } }),
        window: { enum: ["rolling", null] },
        accounts: { type: "string", minLength: 1 },
        headers: nullable({
          type: "object",
          additionalProperties: false,
          required: ["on", "names", "retryAfter"],
          properties: {
            on: { enum: ["every-response"] },
            names: nullable({ type: "array", minItems: 1, items: { type: "string", minLength: 1 } }),
            retryAfter: { type: "array", items: { type: "integer", minimum: 100, maximum: 599 } },
          },
        }),
      },
    },
  },
  "x-key-environments": {
    type: "object",
    minProperties: 1,
    propertyNames: { minLength: 1 },
    additionalProperties: { enum: ["production", "sandbox"] },
  },
  "x-sensitive-scopes": { type: "array", minItems: 1, uniqueItems: true, items: { type: "string", minLength: 1 } },
  "x-access-token": {
    type: "object",
    additionalProperties: false,
    required: ["format", "profile", "expiresInSeconds", "boundTo"],
    properties: {
      format: { const: "jwt" },
      profile: { type: "string", minLength: 1 },
      expiresInSeconds: { type: "integer", minimum: 1 },
      boundTo: { type: "string", minLength: 1 },
    },
  },
  "x-pkce": {
    type: "object",
    additionalProperties: false,
    required: ["required", "methods"],
    properties: { required: { type: "boolean" }, methods: { type: "array", minItems: 1, items: { type: "string" } } },
  },
  "x-idempotency": { enum: ["required", "recommended", "optional"] },
};

/** Every node of the document that carries `extension`, with its JSON pointer. */
function carriers(document: unknown, extension: string): Array<[string, Node]> {
  const found: Array<[string, Node]> = [];
  (function walk(node: unknown, pointer: string) {
    if (!node || typeof node !== "object") return;
    if (extension in (node as Node)) found.push([pointer, node as Node]);
    for (const [key, child] of Object.entries(node as Node)) walk(child, `${pointer}/${key}`);
  })(document, "#");
  return found;
}

describe("every neighbouring surface", () => {
  it.each(neighbours)("%s: has no version the reference does not give, and says so", (api) => {
    const info = documents[api].info as Node;
    expect(info.version).toBe("not shown");
    expect(info["x-not-shown"]).toMatch(/version/);
    expect(info.description).toMatch(/not shown/);
  });

  it.each([
    ["platform", "/api/oauth/v1"],
    ["platform-legacy", "/api/v1"],
    ["connect", "/api/embed"],
  ] as const)("%s: is served under https://{host}%s on the shared host", (api, base) => {
    const servers = documents[api].servers as Array<Node & { url: string; variables: Record<string, Node> }>;
    expect(servers.map(({ url }) => url)).toEqual([`https://{host}${base}`]);
    expect(servers[0]?.["x-not-shown"]).toBeTruthy();
    expect(servers[0]?.variables.host?.default).toBe("api.example.invalid");
  });

  it.each(neighbours)("%s: declares its rate limits in x-rate-limits", (api) => {
    const validate = ajv.compile(shapes["x-rate-limits"]);
    expect(validate(documents[api]["x-rate-limits"]), ajv.errorsText(validate.errors)).toBe(true);
  });

  it.each(neighbours)("%s: gives every operation one declared tag and a verb-noun operationId", (api) => {
    const tags = (documents[api].tags as Array<{ name: string }>).map(({ name }) => name);
    for (const { operation } of opsOf(api)) {
      expect(operation.tags, operation.operationId).toHaveLength(1);
      expect(tags).toContain(operation.tags[0]);
      expect(operation.operationId).toMatch(/^[a-z]+[A-Z][A-Za-z0-9]*$/);
    }
  });

  it.each(neighbours)("%s: marks every gap with x-not-shown and says so in words", (api) => {
    const gaps = carriers(documents[api], "x-not-shown");
    expect(gaps.length).toBeGreaterThan(3);
    for (const [pointer, node] of gaps) {
      expect(String(node.description), pointer).toMatch(/\bnot\s+shown\b/i);
      expect(String(node["x-not-shown"]).trim(), pointer).not.toBe("");
    }
  });

  it.each(neighbours)("%s: gives its new extensions the shape spec/extensions.md documents", (api) => {
    for (const [extension, shape] of Object.entries(shapes)) {
      const validate = ajv.compile(shape);
      for (const [pointer, node] of carriers(documents[api], extension)) {
        expect(validate(node[extension]), `${pointer} ${extension}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
    }
  });
});

describe("the OAuth platform description", () => {
  const api = "platform";
  const document = documents[api];
  const scheme = components(api).securitySchemes?.OAuth2 as Node & { flows: Record<string, Node & { scopes: Record<string, string> }> };
  const protocol = ["registerClient", "authorizeClient", "requestToken", "revokeToken", "getAuthorizationServerMetadata"];
  const resource = opsOf(api).filter(({ operation }) => !protocol.includes(operation.operationId));
  const writes = resource.filter(({ method }) => method === "post");

  it("has exactly the operations the reference states, at their paths and methods", () => {
    expect(opsOf(api).map(({ method, path, operation }) => `${method.toUpperCase()} ${path} ${operation.operationId}`).sort()).toEqual(
      [
        "POST /register registerClient",
        "GET /authorize authorizeClient",
        "POST /token requestToken",
        "POST /revoke revokeToken",
        "GET /.well-known/oauth-authorization-server getAuthorizationServerMetadata",
        "POST /webhooks/{id}/test testWebhook",
        "GET /webhooks/{id}/deliveries listWebhookDeliveries",
        "GET /posts/{id}/metrics-history getPostMetricsHistory",
        "POST /payouts/execute executePayout",
        "POST /payouts/quick-pay executeQuickPay",
        "POST /invoices createInvoice",
        "POST /invoices/{id}/send sendInvoice",
        "POST /invoices/{id}/void voidInvoice",
        "POST /campaigns/{id}/analytics-history createCampaignAnalyticsHistory",
      ].sort(),
    );
  });

  it("lacks a 2XX only on authorizeClient and a 4XX only on the discovery document (the exemptions redocly.yaml scopes)", () => {
    const without = (pattern: RegExp) =>
      opsOf(api)
        .filter(({ operation }) => !Object.keys(operation.responses).some((status) => pattern.test(status)))
        .map(({ operation }) => operation.operationId);
    expect(without(/^2(XX|\d\d)$/)).toEqual(["authorizeClient"]);
    expect(without(/^4(XX|\d\d)$/)).toEqual(["getAuthorizationServerMetadata"]);
  });

  it("keeps the paths stated without methods (/webhooks, /clients/{id}, /consent) as paths without operations, marked", () => {
    const paths = document.paths as Record<string, Node>;
    for (const path of ["/webhooks", "/clients/{id}", "/consent"]) {
      const item = paths[path] as Node;
      expect(Object.keys(item).filter((key) => ["get", "put", "post", "delete", "patch"].includes(key)), path).toEqual([]);
      expect(item["x-not-shown"], path).toMatch(/method/);
    }
  });

  it("serves the discovery document from the host root through a path-level server", () => {
    const item = (document.paths as Record<string, Node>)["/.well-known/oauth-authorization-server"] as { servers: Array<{ url: string }> };
    expect(item.servers.map(({ url }) => url)).toEqual(["https://{host}"]);
  });

  it("describes OAuth 2.1: authorization code with PKCE S256, refresh at /token, client credentials", () => {
    expect(scheme.type).toBe("oauth2");
    expect(document.security).toEqual([{ OAuth2: [] }]);
    expect(scheme.flows.authorizationCode).toMatchObject({
      authorizationUrl: "/api/oauth/v1/authorize",
      tokenUrl: "/api/oauth/v1/token",
      refreshUrl: "/api/oauth/v1/token",
      "x-pkce": { required: true, methods: ["S256"] },
    });
    expect(scheme.flows.clientCredentials).toMatchObject({ tokenUrl: "/api/oauth/v1/token" });
    expect(Object.keys(scheme.flows).sort()).toEqual(["authorizationCode", "clientCredentials"]);
    expect(scheme["x-access-token"]).toEqual({ format: "jwt", profile: "RFC 9068", expiresInSeconds: 3600, boundTo: "company" });
  });

  it("lists every scope shown, read and write per area, read only for posts, analytics and discover, and marks the sensitive ones", () => {
    const areas = ["campaigns", "contracts", "creators", "applications", "posts", "payouts", "invoices", "messages", "settings", "analytics", "discover"];
    const readOnly = ["posts", "analytics", "discover"];
    const scopes = areas.flatMap((area) => [`${area}:read`, ...(readOnly.includes(area) ? [] : [`${area}:write`])]);
    expect(Object.keys(scheme.flows.authorizationCode?.scopes ?? {}).sort()).toEqual([...scopes, "offline_access"].sort());
    expect(Object.keys(scheme.flows.clientCredentials?.scopes ?? {}).sort()).toEqual([...scopes].sort());
    expect(scheme["x-sensitive-scopes"]).toEqual(["payouts:write", "invoices:write", "messages:write"]);
    expect(scheme["x-not-shown"]).toMatch(/scope/);
  });

  it("leaves the protocol endpoints without bearer security and answers them with RFC 6749 errors", () => {
    // /token and /revoke: no credential (a public client) or HTTP Basic client authentication (RFC 6749 §2.3.1).
    const clientAuthenticated = ["requestToken", "revokeToken"];
    for (const id of protocol) expect(byId(api, id).operation.security, id).toEqual(clientAuthenticated.includes(id) ? [{}, { ClientSecretBasic: [] }] : []);
    expect(components(api).securitySchemes?.ClientSecretBasic).toMatchObject({ type: "http", scheme: "basic" });
    for (const id of ["registerClient", "requestToken", "revokeToken"]) {
      expect(response(api, id, "429").content?.["application/json"]?.schema).toBeDefined();
      expect(JSON.stringify(response(api, id, "429").content)).toContain("temporarily_unavailable");
      expect(JSON.stringify(response(api, id, "default").content)).toContain("ProtocolError");
    }
    const values = (schemas(api).ProtocolError as { properties: { error: { examples: string[]; enum?: unknown } } }).properties.error;
    expect(values.examples).toEqual(["invalid_grant", "invalid_client", "invalid_scope", "unsupported_grant_type", "temporarily_unavailable"]);
    expect(values.enum).toBeUndefined();
    expect(Object.keys(response(api, "authorizeClient", "400").content ?? {})).toEqual(["text/html"]);
    expect(headerOf(api, response(api, "authorizeClient", "3XX"), "Location")?.required).toBe(true);
  });

  it("lists every resource error code with the status the reference gives, leaving unshown ones null", () => {
    const codes = schemas(api).ErrorCode as { enum: string[]; "x-error-codes": Record<string, { status: unknown }> };
    expect(Object.fromEntries(Object.entries(codes["x-error-codes"]).map(([code, { status }]) => [code, status]))).toEqual({
      unauthorized: 401, insufficient_scope: 403, forbidden: 403, not_found: 404, subscription_required: 402,
      idempotency_conflict: 409, rate_limited: 429, invalid_request: null, conflict: null, internal: null,
    });
    expect(Object.keys(codes["x-error-codes"]).sort()).toEqual([...codes.enum].sort());
    const error = schemas(api).ResourceError as { required: string[] };
    expect(error.required).toEqual(["code", "message", "requestId"]);
  });

  it("lists the consent errors with their statuses", () => {
    const codes = schemas(api).ConsentErrorCode as { "x-error-codes": Record<string, { status: unknown }> };
    expect(Object.fromEntries(Object.entries(codes["x-error-codes"]).map(([code, { status }]) => [code, status]))).toEqual({
      invalid_request: 400, unauthorized: 401, subscription_required: 402, forbidden: 403, csrf: 403, not_found: 404,
      already_used: 409, expired: 410,
    });
    expect((schemas(api).ConsentError as { required: string[] }).required).toEqual(["error", "message"]);
  });

  it("answers every resource operation with 401 (challenge), 402, 403 (challenge on insufficient_scope), 429 (Retry-After) and the unlisted codes", () => {
    expect(resource).toHaveLength(9);
    for (const { operation, path } of resource) {
      const id = operation.operationId;
      const statuses = Object.keys(operation.responses);
      expect(statuses, id).toEqual(expect.arrayContaining(["2XX", "401", "402", "403", "429", "default"]));
      expect(statuses.includes("404"), id).toBe(path.includes("{id}"));
      expect(headerOf(api, response(api, id, "401"), "WWW-Authenticate")?.required, id).toBe(true);
      expect(headerOf(api, response(api, id, "403"), "WWW-Authenticate")?.required, id).toBe(false);
      expect(headerOf(api, response(api, id, "429"), "Retry-After")?.required, id).toBe(true);
    }
  });

  it("takes Idempotency-Key on every write: required on payouts (400 when missing) and analytics history, recommended on invoices", () => {
    const expected: Record<string, string> = {
      testWebhook: "optional", executePayout: "required", executeQuickPay: "required", createInvoice: "recommended",
      sendInvoice: "recommended", voidInvoice: "recommended", createCampaignAnalyticsHistory: "required",
    };
    expect(Object.fromEntries(writes.map(({ operation }) => [operation.operationId, operation["x-idempotency"]]))).toEqual(expected);
    for (const { operation } of writes) {
      const id = operation.operationId;
      expect(Object.keys(operation.responses), id).toContain("409");
      expect(response(api, id, "409").description, id).toContain("`idempotency_conflict`");
      expect(Object.keys(operation.responses).includes("400"), id).toBe(id === "executePayout" || id === "executeQuickPay");
    }
    const key = (operation: (typeof writes)[number]["operation"]) =>
      (operation.parameters ?? []).map((ref) => deref<Parameter>(document, ref)).find((p) => p.name === "Idempotency-Key");
    expect(key(byId(api, "createCampaignAnalyticsHistory").operation)?.schema).toMatchObject({ minLength: 8, maxLength: 200 });
    for (const { operation } of resource.filter(({ method }) => method === "get")) expect(operation["x-idempotency"]).toBeUndefined();
  });

  it("pages lists on cursor: data, nextCursor and hasMore, nextCursor null when hasMore is false", () => {
    // Two complete shapes: more pages (a cursor to pass back) or the last page (nextCursor null).
    const page = schemas(api).CursorPage as { required: string[]; oneOf: Array<{ required: string[]; properties: Record<string, Node> }> };
    expect(page.required).toEqual(["data", "nextCursor", "hasMore"]);
    expect(page.oneOf.map(({ required }) => required)).toEqual([["hasMore", "nextCursor"], ["hasMore", "nextCursor"]]);
    expect(page.oneOf.map(({ properties }) => properties.hasMore?.const)).toEqual([true, false]);
    // The last page's nextCursor is never exactly `type: 'null'`, which openapi-fetch's Readable drops (spec/README.md).
    expect(JSON.stringify(page)).not.toContain('"type":"null"');
    const list = byId(api, "listWebhookDeliveries").operation;
    const names = (list.parameters ?? []).map((ref) => deref<Parameter>(document, ref).name);
    expect(names).toEqual(["cursor", "limit"]);
    expect(JSON.stringify(response(api, "listWebhookDeliveries", "2XX").content)).toContain("WebhookDeliveryPage");
  });

  it("narrows each resource error response to its code and enforces the list invariant", () => {
    const { validate } = schemaValidator(api);
    const body = (code: string) => ({ error: { code, message: "m", requestId: "req_1" } });
    const schemaOf = (id: string, status: string) => response(api, id, status).content?.["application/json"]?.schema;
    expect(validate(schemaOf("executePayout", "401"), body("unauthorized")).valid).toBe(true);
    expect(validate(schemaOf("executePayout", "401"), body("forbidden")).valid).toBe(false);
    expect(validate(schemaOf("executePayout", "403"), body("insufficient_scope")).valid).toBe(true);
    expect(validate(schemaOf("executePayout", "403"), body("not_found")).valid).toBe(false);
    expect(validate(schemaOf("executePayout", "409"), body("conflict")).valid).toBe(true);
    expect(validate(schemaOf("executePayout", "401"), { error: { code: "unauthorized", message: "m" } }).valid).toBe(false);
    expect(validate(schemaOf("executePayout", "401"), { error: { code: "unauthorized", message: "m", requestId: "r", meta: { scope: "x" } } }).valid).toBe(true);
    const page = schemaOf("listWebhookDeliveries", "2XX");
    expect(validate(page, { data: [], nextCursor: null, hasMore: false }).valid).toBe(true);
    expect(validate(page, { data: [{}], nextCursor: "c2", hasMore: true }).valid).toBe(true);
    expect(validate(page, { data: [], nextCursor: "c2", hasMore: false }).valid).toBe(false);
    expect(validate(page, { data: [], hasMore: false }).valid).toBe(false);
    expect(validate(page, { data: [], nextCursor: null, hasMore: true }).valid).toBe(false);
    expect(validate(page, { data: [], nextCursor: "", hasMore: true }).valid).toBe(false);
  });

  it("limits resource calls to 600 per minute per (client, company) pair in a rolling window", () => {
    // Every resource response carries the rate-limit headers, whose names the reference does not show; a 429 adds Retry-After.
    const headers = { on: "every-response", names: null, retryAfter: [429] };
    expect(document["x-rate-limits"]).toContainEqual({ calls: "resource", requests: 600, periodSeconds: 60, per: ["client", "company"], window: "rolling", headers });
  });

  it("keeps unshown bodies open", () => {
    for (const name of ["WebhookDelivery", "PostMetricsHistory", "ExecutePayoutRequest"]) {
      const schema = schemas(api)[name] as Node;
      expect(schema.type, name).toBe("object");
      expect(schema.additionalProperties, name).toBe(true);
      expect(schema.properties, name).toBeUndefined();
      expect(schema["x-not-shown"], name).toBeTruthy();
    }
  });

  it("types the protocol bodies as the RFCs it cites define them, open where they are", () => {
    const { validate } = schemaValidator(api);
    const required = (name: string) => (schemas(api)[name] as { required?: string[] }).required;
    // RFC 6749 §5.1, OAuth 2.1 §3.2.3; RFC 8414 §2; RFC 7009 §2.1; RFC 7591 §3.2.1 (in the allOf).
    expect(required("TokenResponse")).toEqual(["access_token", "token_type"]);
    expect(required("AuthorizationServerMetadata")).toEqual(["issuer", "authorization_endpoint", "token_endpoint", "response_types_supported"]);
    expect(required("RevocationRequest")).toEqual(["token"]);
    for (const name of ["TokenResponse", "AuthorizationServerMetadata", "ClientRegistrationRequest", "RevocationRequest", "ProtocolError"]) {
      const schema = schemas(api)[name] as Node;
      expect(schema.additionalProperties ?? true, name).toBe(true);
      expect(String(schema.description), name).toMatch(/RFC \d+ §/);
    }
    const token = schemas(api).TokenResponse;
    const issued = { access_token: "eyJ.a.b", token_type: "Bearer", expires_in: 3600, scope: "posts:read", id_token: "x" };
    expect(validate(token, issued).valid).toBe(true);
    expect(validate(token, { token_type: "Bearer" }).valid).toBe(false);
    expect(validate(token, { ...issued, scope: "" }).valid).toBe(false);
    expect(validate(token, { ...issued, expires_in: "3600" }).valid).toBe(false);
    const registered = schemas(api).ClientRegistrationResponse;
    expect(validate(registered, { client_id: "c", grant_types: ["authorization_code"] }).valid).toBe(true);
    expect(validate(registered, { client_name: "no id" }).valid).toBe(false);
    expect(validate(registered, { client_id: "c", client_secret: "s" }).valid).toBe(false);
    expect(validate(registered, { client_id: "c", client_secret: "s", client_secret_expires_at: 0 }).valid).toBe(true);
    const error = schemas(api).ProtocolError;
    expect(validate(error, { error: "invalid_grant", error_uri: "https://docs.example/errors" }).valid).toBe(true);
    expect(validate(error, { error: "invalid_grant", error_description: 'says "no"' }).valid).toBe(false);
  });
});

describe("the key-based platform description (deprecated)", () => {
  const api = "platform-legacy";
  const document = documents[api];

  it("marks every operation deprecated and points to the OAuth API", () => {
    expect(opsOf(api).map(({ method, path }) => `${method.toUpperCase()} ${path}`)).toEqual(["GET /posts/{id}/metrics-history"]);
    for (const { operation } of opsOf(api)) expect(operation.deprecated, operation.operationId).toBe(true);
    const description = String((document.info as Node).description);
    expect(description).toContain("24 operations, 5 of them writes");
    expect(description).toContain("/api/oauth/v1");
    expect(description).toMatch(/deprecation dates and the removal schedule are not shown/i);
  });

  it("authenticates with a company key in x-api-key that other surfaces' keys cannot replace", () => {
    const scheme = components(api).securitySchemes?.CompanyApiKey as Node;
    expect(scheme).toMatchObject({ type: "apiKey", in: "header", name: "x-api-key" });
    expect(scheme["x-rejected-key-prefixes"]).toEqual({ scrape_live_: "scraper", sk_live_: "connect", sk_test_: "connect" });
    expect(document.security).toEqual([{ CompanyApiKey: [] }]);
  });

  it("answers { error, code? } with 400, 401, 402, 403, 404 and 429, and X-RateLimit-* on every response", () => {
    const error = schemas(api).LegacyError as { required: string[]; properties: Record<string, Node> };
    expect(error.required).toEqual(["error"]);
    expect(Object.keys(error.properties)).toEqual(["error", "code"]);
    for (const { operation } of opsOf(api)) {
      expect(Object.keys(operation.responses).sort()).toEqual(["2XX", "400", "401", "402", "403", "404", "429"]);
      for (const status of Object.keys(operation.responses)) {
        for (const header of ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]) {
          expect(headerOf(api, response(api, operation.operationId, status), header)?.required, `${status} ${header}`).toBe(true);
        }
      }
    }
  });

  it("pages legacy lists on page and limit: data, page, total, sometimes limit or totalPages", () => {
    const page = schemas(api).PageList as { required: string[]; properties: Node };
    expect(page.required).toEqual(["data", "page", "total"]);
    expect(Object.keys(page.properties)).toEqual(["data", "page", "total", "limit", "totalPages"]);
  });

  it("limits each key to 100 requests per minute, 400 for allowlisted partner accounts", () => {
    expect(document["x-rate-limits"]).toEqual([
      { calls: "all", requests: 100, periodSeconds: 60, per: ["key"], window: null },
      { calls: "all", requests: 400, periodSeconds: 60, per: ["key"], window: null, accounts: "allowlisted-partner" },
    ]);
  });
});

describe("the connect description", () => {
  const api = "connect";
  const document = documents[api];

  it("has no operations, since the reference shows none", () => {
    expect(document.paths).toEqual({});
  });

  it("selects production or sandbox by key prefix on one base URL and rejects scraper keys", () => {
    const scheme = components(api).securitySchemes?.ConnectApiKey as Node;
    expect(scheme).toMatchObject({ type: "apiKey", in: "header", name: "x-api-key" });
    expect(scheme["x-key-environments"]).toEqual({ sk_live_: "production", sk_test_: "sandbox" });
    expect(scheme["x-rejected-key-prefixes"]).toEqual({ scrape_live_: "scraper" });
    expect(document.security).toEqual([{ ConnectApiKey: [] }]);
  });

  it("limits each kind of call and answers a rejection with 429 and Retry-After", () => {
    expect(document["x-rate-limits"]).toEqual([
      { calls: "account-creation", requests: 100, periodSeconds: 3600, per: null, window: null },
      { calls: "token-generation", requests: 30, periodSeconds: 60, per: ["account"], window: null },
      { calls: "transfers", requests: 60, periodSeconds: 60, per: null, window: null },
      { calls: "general", requests: 100, periodSeconds: 60, per: null, window: null },
    ]);
    const rateLimited = components(api).responses?.RateLimited as Response;
    expect(headerOf(api, rateLimited, "Retry-After")?.required).toBe(true);
    expect(rateLimited.content).toBeUndefined();
  });
});

describe("the scraper's keys and the connect keys", () => {
  it("reject each other, as the reference says", () => {
    const scraper = components("scraper").securitySchemes?.ScraperApiKey as Node;
    const connect = components("connect").securitySchemes?.ConnectApiKey as Node;
    for (const prefix of Object.keys(connect["x-key-environments"] as Node)) {
      expect(scraper["x-rejected-key-prefixes"]).toHaveProperty([prefix], "connect");
    }
    expect(connect["x-rejected-key-prefixes"]).toHaveProperty([scraper["x-key-prefix"] as string], "scraper");
  });
});
