import { describe, expect, it } from "vitest";
import { deref, operations, type Parameter, schemaValidator } from "./load.js";

// Request bodies accepted and rejected, derived from the reference's rules (sections 4.1, 4.2 and 4.4).
const { document, validate } = schemaValidator("scraper");
const byId = new Map(operations(document).map(({ operation }) => [operation.operationId, operation]));

function requestSchema(operationId: string): unknown {
  const operation = byId.get(operationId);
  if (!operation) throw new Error(`no operation ${operationId}`);
  return operation.requestBody?.content["application/json"]?.schema;
}

const platforms = ["shortvideo", "photoshare", "videosite", "socialnet", "ephemeral", "microblog", "professional"];
const creatorOperations = ["shortvideoFavorites", "shortvideoReposts", "shortvideoPlaylists"];

type Row = [operationId: string, body: unknown, accepted: boolean, why: string];

const usernameRows = (operationId: string): Row[] => [
  [operationId, { username: "creator" }, true, "a plain handle"],
  [operationId, { username: "@creator.name_01-x" }, true, "a leading @ and . _ -"],
  [operationId, { username: "a".repeat(100) }, true, "100 characters"],
  [operationId, { username: `@${"a".repeat(100)}` }, true, "@ plus 100 characters"],
  [operationId, { username: "a".repeat(101) }, false, "101 characters"],
  [operationId, { username: "" }, false, "empty"],
  [operationId, { username: "@" }, false, "only @"],
  [operationId, { username: "@@creator" }, false, "two @"],
  [operationId, { username: "creator name" }, false, "a space"],
  [operationId, { username: "creator!" }, false, "a character outside the class"],
  [operationId, { username: "creator\n" }, false, "a trailing newline (the pattern is anchored)"],
  [operationId, { username: 42 }, false, "not a string"],
  [operationId, {}, false, "missing username"],
  [operationId, { username: "creator", utm_source: "x" }, true, "an unknown field is ignored by normalized endpoints"],
];

const rows: Row[] = [
  ...platforms.flatMap((p) => [...usernameRows(`${p}Profile`), ...usernameRows(`${p}Posts`)]),
  ...platforms.flatMap((p): Row[] => [
    [`${p}Posts`, { username: "creator", cursor: "eyJvZmZzZXQiOjMwfQ" }, true, "a cursor passed back verbatim"],
    [`${p}Posts`, { username: "creator", cursor: 30 }, false, "a numeric cursor"],
    [`${p}Post`, { url: `https://${p}.example/p/1` }, true, "a URL"],
    [`${p}Post`, { url: `https://${p}.example/p/1`, include_transcript: true, include_comments: false }, true, "both flags"],
    [`${p}Post`, { url: `https://${p}.example/p/1`, include_comments: "yes" }, false, "a flag that is not a boolean"],
    [`${p}Post`, { include_transcript: true }, false, "missing url"],
    [`${p}Post`, { url: `https://${p}.example/p/1`, note: "x" }, true, "an unknown field is ignored"],
  ]),
  ["videositePosts", { username: "creator", contentType: "video" }, true, "contentType video switches to longform"],
  ["videositePosts", { username: "creator", contentType: 1 }, false, "contentType is a string"],
  ["microblogPost", { url: "microblog.example/Creator/status/1862051234567890123?s=20" }, true, "no scheme, with a query"],
  ["shortvideoAudience", { anything: true }, true, "shortvideo audience ignores unknown fields (its fields are not shown)"],
  ...creatorOperations.flatMap((id): Row[] => [
    [id, { handle: "creator" }, true, "a handle"],
    [id, { unique_id: "creator" }, true, "a unique_id"],
    [id, { handle: "creator", cursor: "0" }, true, "the starting cursor, the string 0"],
    [id, {}, false, "no creator identifier"],
    [id, { handle: "creator", unique_id: "creator" }, false, "two creator identifiers"],
    [id, { handle: "creator", cursor: 0 }, false, "a numeric cursor"],
    [id, { handle: "creator", Cursor: "0" }, false, "a misspelled field is rejected by focused operations"],
    [id, { handle: "creator", username: "creator" }, false, "an unknown field is rejected by focused operations"],
  ]),
  ["shortvideoHashtag", { hashtag: "streetfood" }, true, "a topic name"],
  ["shortvideoHashtag", {}, false, "no topic"],
  ["shortvideoHashtag", { hashtag: "streetfood", tag: "x" }, false, "an unknown field"],
  ["shortvideoCollection", { url: "https://shortvideo.example/@creator/collection/Recipes-7301234567890123456" }, true, "a collection URL"],
  ["shortvideoCollection", { url: "7301234567890123456" }, true, "a collection id in the same field"],
  ["shortvideoCollection", { url: "x", id: "1" }, false, "an unknown field"],
  ["shortvideoSearchSuggestions", { query: "street fo" }, true, "partial search text"],
  ["shortvideoSearchSuggestions", { q: "street fo" }, false, "a misspelled field"],
  ["shortvideoRegions", {}, true, "an empty object"],
  ["shortvideoRegions", { region: "US" }, false, "any field"],
];

describe("request bodies follow the reference's rules", () => {
  it.each(rows.map(([id, body, accepted, why]) => [`${id}: ${accepted ? "accepts" : "rejects"} ${why}`, id, body, accepted] as const))(
    "%s",
    (_name, operationId, body, accepted) => {
      expect(validate(requestSchema(operationId), body).valid).toBe(accepted);
    },
  );

  it("lets the regions body be omitted and requires a body everywhere else", () => {
    for (const [id, operation] of byId) {
      expect(operation.requestBody?.required ?? false, id).toBe(id !== "shortvideoRegions");
    }
  });

  it("keeps the photoshare audience open but documents that it rejects unknown fields", () => {
    const operation = byId.get("photoshareAudience");
    expect(operation?.["x-unknown-fields"]).toBe("reject");
    expect(validate(requestSchema("photoshareAudience"), { any: 1 }).valid).toBe(true);
  });
});

// The neighbouring surfaces: request bodies the reference does not show stay open (any JSON object), the few fields and
// parameters it does show follow its rules (sections 4.5, 5.2 and 8.3).
describe("neighbouring surfaces' requests follow the reference's rules", () => {
  const platform = schemaValidator("platform");
  const legacy = schemaValidator("platform-legacy");
  const surfaces = { platform, "platform-legacy": legacy };
  type Surface = keyof typeof surfaces;

  const operation = (surface: Surface, operationId: string) => {
    const found = operations(surfaces[surface].document).find(({ operation }) => operation.operationId === operationId);
    if (!found) throw new Error(`no operation ${operationId} in ${surface}`);
    return found;
  };
  const body = (surface: Surface, operationId: string, mediaType = "application/json") =>
    operation(surface, operationId).operation.requestBody?.content[mediaType]?.schema;
  const parameter = (surface: Surface, operationId: string, where: string, name: string) => {
    const { operation: op, pathParameters } = operation(surface, operationId);
    const found = [...pathParameters, ...(op.parameters ?? [])]
      .map((ref) => deref<Parameter>(surfaces[surface].document, ref))
      .find((p) => p.in === where && p.name === name);
    if (!found) throw new Error(`no ${where} parameter ${name} on ${operationId}`);
    return found;
  };

  const writes = ["testWebhook", "executePayout", "executeQuickPay", "createInvoice", "sendInvoice", "voidInvoice", "createCampaignAnalyticsHistory"];
  type BodyRow = [surface: Surface, operationId: string, mediaType: string, body: unknown, accepted: boolean, why: string];
  const exchange = { grant_type: "authorization_code", code: "c", redirect_uri: "https://app.example/cb" };
  const bodyRows: BodyRow[] = [
    ...writes.flatMap((id): BodyRow[] => [
      ["platform", id, "application/json", {}, true, "an empty object (the fields are not shown)"],
      ["platform", id, "application/json", { amount: 1200, note: "x" }, true, "any fields (the body stays open)"],
      ["platform", id, "application/json", [], false, "an array"],
      ["platform", id, "application/json", "x", false, "a string"],
    ]),
    ["platform", "requestToken", "application/x-www-form-urlencoded", { grant_type: "client_credentials" }, true, "client credentials"],
    ["platform", "requestToken", "application/x-www-form-urlencoded", { grant_type: "refresh_token", refresh_token: "rt" }, true, "a refresh"],
    ["platform", "requestToken", "application/x-www-form-urlencoded", { grant_type: "urn:example:other" }, false, "a grant the reference does not show (RFC 6749 §4.5 extension grants are not shown)"],
    ["platform", "requestToken", "application/x-www-form-urlencoded", { grant_type: "authorization_code" }, false, "a code exchange without its code (RFC 6749 §4.1.3)"],
    ["platform", "requestToken", "application/x-www-form-urlencoded", { grant_type: "refresh_token", refresh_token: "" }, false, "an empty refresh token (RFC 6749 §3.2: an empty parameter is left out)"],
    ["platform", "requestToken", "application/x-www-form-urlencoded", { grant_type: "refresh_token", refresh_token: "rt", scope: "" }, true, "an empty optional scope (left out)"],
    ["platform", "requestToken", "application/x-www-form-urlencoded", { ...exchange, code_verifier: "v".repeat(43) }, true, "a 43-character verifier (RFC 7636 §4.1)"],
    ["platform", "requestToken", "application/x-www-form-urlencoded", { ...exchange, code_verifier: "v".repeat(128) }, true, "a 128-character verifier"],
    ["platform", "requestToken", "application/x-www-form-urlencoded", { ...exchange, code_verifier: "v".repeat(42) }, false, "a 42-character verifier"],
    ["platform", "requestToken", "application/x-www-form-urlencoded", { ...exchange, code_verifier: "v".repeat(129) }, false, "a 129-character verifier"],
    ["platform", "requestToken", "application/x-www-form-urlencoded", { ...exchange, code_verifier: `${"v".repeat(42)}+` }, false, "a verifier outside A-Z a-z 0-9 - . _ ~"],
    ["platform", "requestToken", "application/x-www-form-urlencoded", {}, false, "no grant_type"],
    ["platform", "registerClient", "application/json", { redirect_uris: ["https://app.example/cb"] }, true, "RFC 7591 metadata"],
    ["platform", "registerClient", "application/json", { grant_types: "refresh_token" }, false, "grant_types that is not an array (RFC 7591 §2)"],
    ["platform", "registerClient", "application/json", { software_version: "2.1", x_vendor: true }, true, "metadata of other specifications (RFC 7591 §2)"],
    ["platform", "revokeToken", "application/x-www-form-urlencoded", { token: "rt" }, true, "a token"],
    ["platform", "revokeToken", "application/x-www-form-urlencoded", { token: "rt", token_type_hint: "refresh_token" }, true, "a token with its hint (RFC 7009 §2.1)"],
    ["platform", "revokeToken", "application/x-www-form-urlencoded", { foo: "bar" }, false, "no token (RFC 7009 §2.1)"],
    ["platform", "revokeToken", "application/x-www-form-urlencoded", { token: "" }, false, "an empty token (RFC 6749 §3.2: left out)"],
  ];
  it.each(bodyRows.map(([s, id, mt, b, ok, why]) => [`${s} ${id}: ${ok ? "accepts" : "rejects"} ${why}`, s, id, mt, b, ok] as const))(
    "%s",
    (_name, surface, operationId, mediaType, value, accepted) => {
      expect(surfaces[surface].validate(body(surface, operationId, mediaType), value).valid).toBe(accepted);
    },
  );

  type ParameterRow = [surface: Surface, operationId: string, where: string, name: string, value: unknown, accepted: boolean, why: string];
  const key = (length: number) => "k".repeat(length);
  const parameterRows: ParameterRow[] = [
    ["platform", "createCampaignAnalyticsHistory", "header", "Idempotency-Key", key(8), true, "8 characters"],
    ["platform", "createCampaignAnalyticsHistory", "header", "Idempotency-Key", key(200), true, "200 characters"],
    ["platform", "createCampaignAnalyticsHistory", "header", "Idempotency-Key", key(7), false, "7 characters"],
    ["platform", "createCampaignAnalyticsHistory", "header", "Idempotency-Key", key(201), false, "201 characters"],
    ["platform", "listWebhookDeliveries", "query", "limit", 100, true, "a list limit of 100"],
    ["platform", "listWebhookDeliveries", "query", "limit", 101, false, "a list limit over 100"],
    ["platform", "listWebhookDeliveries", "query", "limit", 1, true, "a list limit of 1"],
    ["platform", "listWebhookDeliveries", "query", "limit", 0, false, "a list limit of 0"],
    ["platform", "listWebhookDeliveries", "query", "cursor", "eyJpZCI6MX0", true, "an opaque cursor"],
    ["platform", "listWebhookDeliveries", "query", "cursor", "", false, "an empty cursor (names no page)"],
    ["platform", "createInvoice", "header", "Idempotency-Key", "", false, "an empty optional Idempotency-Key (no key)"],
    ["platform", "executePayout", "header", "Idempotency-Key", "", false, "an empty required Idempotency-Key (no key)"],
    ["platform", "getPostMetricsHistory", "query", "limit", 0, false, "a metrics-history limit of 0"],
    ["platform-legacy", "getPostMetricsHistory", "query", "limit", 0, false, "a legacy metrics-history limit of 0"],
    ["platform", "getPostMetricsHistory", "query", "limit", 500, true, "a metrics-history limit of 500"],
    ["platform", "getPostMetricsHistory", "query", "limit", 501, false, "a metrics-history limit over 500"],
    ["platform", "getPostMetricsHistory", "query", "days", 30, true, "days (its type is not shown, so anything)"],
    ["platform-legacy", "getPostMetricsHistory", "query", "limit", 500, true, "a metrics-history limit of 500"],
    ["platform-legacy", "getPostMetricsHistory", "query", "limit", 501, false, "a metrics-history limit over 500"],
    ["platform", "authorizeClient", "query", "code_challenge_method", "S256", true, "PKCE S256"],
    ["platform", "authorizeClient", "query", "code_challenge_method", "plain", false, "PKCE plain"],
    ["platform", "authorizeClient", "query", "code_challenge", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", true, "an S256 challenge (RFC 7636 §4.2)"],
    ["platform", "authorizeClient", "query", "code_challenge", "c".repeat(42), false, "a 42-character challenge"],
    ["platform", "authorizeClient", "query", "code_challenge", "c".repeat(129), false, "a 129-character challenge"],
  ];
  it.each(
    parameterRows.map(([s, id, where, name, v, ok, why]) => [`${s} ${id} ${name}: ${ok ? "accepts" : "rejects"} ${why}`, s, id, where, name, v, ok] as const),
  )("%s", (_name, surface, operationId, where, name, value, accepted) => {
    expect(surfaces[surface].validate(parameter(surface, operationId, where, name).schema, value).valid).toBe(accepted);
  });

  it("defaults list limits to 25 and legacy pages to 1, with the legacy convention in components", () => {
    expect(parameter("platform", "listWebhookDeliveries", "query", "limit").schema).toMatchObject({ type: "integer", default: 25, minimum: 1, maximum: 100 });
    const components = legacy.document.components as { parameters: Record<string, Parameter> };
    expect(components.parameters.Page?.schema).toMatchObject({ type: "integer", default: 1 });
    expect(components.parameters.Limit?.schema).toMatchObject({ type: "integer", default: 25, minimum: 1, maximum: 100 });
  });

  it("requires PKCE S256 on /authorize and Idempotency-Key where the reference does", () => {
    expect(parameter("platform", "authorizeClient", "query", "code_challenge_method").required).toBe(true);
    expect(parameter("platform", "authorizeClient", "query", "code_challenge").required).toBe(true);
    const required: Record<string, boolean> = {
      testWebhook: false, executePayout: true, executeQuickPay: true, createInvoice: false, sendInvoice: false, voidInvoice: false,
      createCampaignAnalyticsHistory: true,
    };
    for (const [id, isRequired] of Object.entries(required)) {
      expect(parameter("platform", id, "header", "Idempotency-Key").required ?? false, id).toBe(isRequired);
    }
  });
});
