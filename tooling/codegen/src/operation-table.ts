import type { OpenApiDocument } from "./openapi-json-schema.js";

// The service's rules, read from the description's vendor extensions (spec/extensions.md) into one plain table.

export type Billing = "billed" | "free" | "refunded" | "by-code";

export interface Paging {
  mode: "cursor" | "single-page";
  /** The `data` field holding the page's items. */
  items: string;
  request?: string;
  response?: string;
  hasMore?: string;
  start?: string;
  pageSize?: { min?: number; max: number; exact: boolean };
}

export interface OperationRules {
  operationId: string;
  method: string;
  path: string;
  /** The path's platform segment (`/scrape/<platform>/<resource>`), where the path has one. */
  platform?: string;
  resource?: string;
  tag?: string;
  credits?: { standard: number; accountRate: boolean };
  timeoutMs?: number;
  paging?: Paging;
  requestBodyRequired: boolean;
  /** Billing outcome per documented status (`200`, `404`, `default`, …). */
  billing: Record<string, Billing>;
  /** `x-idempotency`: whether the `Idempotency-Key` header is required, strongly recommended or optional. */
  idempotency?: Idempotency;
  /** The `Idempotency-Key` header parameter as declared (path- or operation-level): requiredness and length limits. */
  idempotencyKey?: HeaderRules;
  /** The operation's own `security` (scheme names), where it overrides the document's: `[]` means no credential. */
  security?: string[];
  /**
   * The URL of the operation's own server (the first of an operation- or path-level `servers`), where it has one: the
   * operation is served there (`https://{host}`: the host's root), not under the document's base path.
   */
  server?: string;
}

/**
 * What an operation does on the service's side that no client acts on: how long it typically takes, what it does with
 * request fields it does not know, and the enrichment it honours. The sandbox plays them; a client never reads them.
 */
export interface OperationBehaviour {
  typicalDurationMs?: { min: number; max: number };
  unknownFields?: "ignore" | "reject";
  enrichment?: { transcript: boolean; comments: boolean; commentCap?: number };
}

export type Idempotency = "required" | "recommended" | "optional";

export interface HeaderRules {
  required: boolean;
  minLength?: number;
  maxLength?: number;
}

export interface ErrorCodeRules {
  status: number | "5XX" | null;
  billing: "billed" | "free" | "refunded" | null;
  retry: "backoff" | "retry-after" | "never" | null;
}

export interface ApiKeyRules {
  /** Where the key goes: `header` and its name. */
  in: string;
  name: string;
  keyPrefix?: string;
  /** Documented prefixes of other surfaces' keys, which this surface answers with 401, mapped to the surface. */
  rejectedKeyPrefixes?: Record<string, string>;
  /** `x-key-environments`: each valid key prefix and the environment it reaches on the same base URL. */
  keyEnvironments?: Record<string, "production" | "sandbox">;
}

/** One entry of `x-rate-limits`: a plain count per period; `null` where the reference does not show the value. */
export interface RateLimitEntry {
  calls: string;
  requests: number | null;
  periodSeconds: number | null;
  per: string[] | null;
  window: "rolling" | null;
  accounts?: string;
  /**
   * The rate-limit headers of the calls it counts: on which responses, their names (`null` where the reference does not
   * show them) and the statuses that add `Retry-After`; `null` where the reference does not say whether there are any.
   */
  headers?: { on: "every-response"; names: string[] | null; retryAfter: number[] } | null;
}

export interface OAuthFlowRules {
  authorizationUrl?: string;
  tokenUrl?: string;
  refreshUrl?: string;
  /** `x-pkce`: whether PKCE is required and the code-challenge methods allowed. */
  pkce?: { required: boolean; methods: string[] };
  scopes: string[];
}

export interface OAuthRules {
  /** `x-sensitive-scopes`: scopes that sandbox or test-mode grants cannot use. */
  sensitiveScopes?: string[];
  /** `x-access-token`: the access token's format, profile, lifetime and binding. */
  accessToken?: { format: "jwt"; profile: string; expiresInSeconds: number; boundTo: string };
  /** By flow name (`authorizationCode`, `clientCredentials`, …). */
  flows: Record<string, OAuthFlowRules>;
}

export interface RetryBackoff {
  scheduleSeconds: number[];
  capSeconds: number;
  jitter: boolean;
}

export interface RateLimit {
  requestsPerMinute: number;
  burstSeconds: number;
  refill: "continuous";
  scope: string;
}

export interface OperationTable {
  operations: Record<string, OperationRules>;
  /**
   * Each operation's behaviour on the service's side, where the description states any: apart from `operations`, so
   * that a client (which imports `operations`) bundles none of it.
   */
  operationBehaviour: Record<string, OperationBehaviour>;
  errorCodes: Record<string, ErrorCodeRules>;
  /** The suggested backoff of `backoff` errors, where the surface documents one. */
  retryBackoff: RetryBackoff | null;
  /** The success envelope's fields (`SuccessEnvelope`), where the surface has one: see `EnvelopeField`. */
  successEnvelope: Record<string, EnvelopeField> | null;
  /** The default rate limit, where the surface documents one. */
  rateLimit: RateLimit | null;
  /** The largest request body in bytes (`x-request-body-limit`), where the surface documents one. */
  requestBodyLimit: number | null;
  /** The surface's recommended client timeout (root `x-timeout-seconds`), for calls no operation matches. */
  defaultTimeoutMs: number | null;
  apiKeys: Record<string, ApiKeyRules>;
  /** `x-rate-limits` of a neighbouring surface, where it has them. */
  rateLimits: RateLimitEntry[] | null;
  /** How long an `Idempotency-Key` is kept (`x-idempotency-retention-seconds`), where the surface has idempotent writes. */
  idempotencyRetentionMs: number | null;
  /** The `oauth2` security schemes, with their extensions. */
  oauth: Record<string, OAuthRules>;
}

/**
 * What a field of the success envelope must be, as its schema says: an `object`, a `string`, an `integer`, or a
 * `count` (an integer with `minimum: 0`: credits and lookups, which no answer may make negative).
 */
export type EnvelopeField = "object" | "string" | "integer" | "count";

type Node = Record<string, unknown>;
const methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];
const scrapePath = /^\/scrape\/([a-z]+)\/([a-z-]+)$/;

/** Follows `$ref` chains (request bodies, responses, …) to the object they name. */
export function deref(document: OpenApiDocument, node: unknown): Node {
  let current = node as Node;
  while (current && typeof current.$ref === "string") {
    current = current.$ref
      .slice(2)
      .split("/")
      .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
      .reduce<Node>((at, key) => at[key] as Node, document as Node);
  }
  return current;
}

const seconds = (value: unknown) => (typeof value === "number" ? value * 1000 : undefined);

/** The `Idempotency-Key` header of an operation, operation-level parameters overriding path-level ones (by name). */
function idempotencyKeyRules(document: OpenApiDocument, item: Node, operation: Node): HeaderRules | undefined {
  const parameters = [...((item.parameters as unknown[]) ?? []), ...((operation.parameters as unknown[]) ?? [])].map((parameter) =>
    deref(document, parameter),
  );
  const header = parameters.findLast((parameter) => parameter.in === "header" && String(parameter.name).toLowerCase() === "idempotency-key");
  if (!header) return undefined;
  const schema = deref(document, header.schema ?? {});
  return withoutUndefined({
    required: header.required === true,
    minLength: typeof schema.minLength === "number" ? schema.minLength : undefined,
    maxLength: typeof schema.maxLength === "number" ? schema.maxLength : undefined,
  });
}

/**
 * The scheme names of an operation-level `security`, or undefined when it inherits the document's. `[]` when a call may
 * carry no credential at all (`security: []`, or an empty alternative such as `[{}, { ClientSecretBasic: [] }]`, where a
 * public client sends none): the table's clients attach no token to such a call.
 */
function securityOf(operation: Node): string[] | undefined {
  const security = operation.security as Array<Record<string, unknown>> | undefined;
  if (security?.some((requirement) => Object.keys(requirement).length === 0)) return [];
  return security && [...new Set(security.flatMap((requirement) => Object.keys(requirement)))];
}

/** The first server URL of an operation's own `servers`, else of its path item's; undefined when it has neither. */
function serverOf(item: Node, operation: Node): string | undefined {
  const servers = (operation.servers ?? item.servers) as Array<{ url: string }> | undefined;
  return servers?.[0]?.url;
}

function operationRules(document: OpenApiDocument, path: string, method: string, item: Node, operation: Node): OperationRules {
  const [, platform, resource] = scrapePath.exec(path) ?? [];
  const responses = (operation.responses ?? {}) as Record<string, unknown>;
  const rules: OperationRules = {
    operationId: String(operation.operationId),
    method: method.toUpperCase(),
    path,
    platform,
    resource,
    tag: (operation.tags as string[] | undefined)?.[0],
    credits: operation["x-credits"] as OperationRules["credits"],
    timeoutMs: seconds(operation["x-timeout-seconds"]),
    paging: operation["x-paging"] as Paging | undefined,
    requestBodyRequired: Boolean(deref(document, operation.requestBody)?.required),
    billing: Object.fromEntries(
      Object.entries(responses).flatMap(([status, response]) => {
        const billing = deref(document, response)["x-billing"];
        return billing ? [[status, billing as Billing]] : [];
      }),
    ),
    idempotency: operation["x-idempotency"] as Idempotency | undefined,
    idempotencyKey: idempotencyKeyRules(document, item, operation),
    security: securityOf(operation),
    server: serverOf(item, operation),
  };
  return withoutUndefined(rules);
}

function operationBehaviour(operation: Node): OperationBehaviour {
  const duration = operation["x-typical-duration-seconds"] as { min: number; max: number } | undefined;
  return withoutUndefined({
    typicalDurationMs: duration && { min: duration.min * 1000, max: duration.max * 1000 },
    unknownFields: operation["x-unknown-fields"] as OperationBehaviour["unknownFields"],
    enrichment: operation["x-enrichment"] as OperationBehaviour["enrichment"],
  });
}

/** Leaves out what the description does not state, so the table holds facts only. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

/**
 * The required fields of `SuccessEnvelope` and, one level down, of its object fields (`meta.credits_charged`), each with
 * what it must be: the client checks every success against these before it counts a credit.
 */
function envelopeFields(document: OpenApiDocument, schema: Node | undefined): Record<string, EnvelopeField> | null {
  if (!schema) return null;
  const fields: Record<string, EnvelopeField> = {};
  const visit = (node: Node, prefix: string) => {
    const properties = (node.properties ?? {}) as Record<string, unknown>;
    for (const name of (node.required ?? []) as string[]) {
      const field = deref(document, properties[name] ?? {});
      const path = `${prefix}${name}`;
      if (field.type === "object") {
        fields[path] = "object";
        if (!prefix) visit(field, `${path}.`);
      } else if (field.type === "string") fields[path] = "string";
      else if (field.type === "integer") fields[path] = field.minimum === 0 ? "count" : "integer";
    }
  };
  visit(deref(document, schema), "");
  return fields;
}

/** Reads every operation's rules and the error-code table from a bundled description. */
export function operationTable(document: OpenApiDocument): OperationTable {
  const operations: Record<string, OperationRules> = {};
  const behaviours: Record<string, OperationBehaviour> = {};
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Node>)) {
    for (const method of methods) {
      const operation = item[method] as Node | undefined;
      if (!operation) continue;
      const id = String(operation.operationId);
      operations[id] = operationRules(document, path, method, item, operation);
      const behaviour = operationBehaviour(operation);
      if (Object.keys(behaviour).length > 0) behaviours[id] = behaviour;
    }
  }
  const schemas = (document.components?.schemas ?? {}) as Record<string, Node>;
  const errorCodes = (schemas.ErrorCode?.["x-error-codes"] ?? {}) as Record<string, ErrorCodeRules>;
  const schemes = (document.components as { securitySchemes?: Record<string, Node> } | undefined)?.securitySchemes ?? {};
  const apiKeys = Object.fromEntries(
    Object.entries(schemes)
      .filter(([, scheme]) => scheme.type === "apiKey")
      .map(([name, scheme]) => [
        name,
        withoutUndefined({
          in: String(scheme.in),
          name: String(scheme.name),
          keyPrefix: scheme["x-key-prefix"] as string | undefined,
          rejectedKeyPrefixes: scheme["x-rejected-key-prefixes"] as Record<string, string> | undefined,
          keyEnvironments: scheme["x-key-environments"] as ApiKeyRules["keyEnvironments"],
        }),
      ]),
  );
  const oauth = Object.fromEntries(
    Object.entries(schemes)
      .filter(([, scheme]) => scheme.type === "oauth2")
      .map(([name, scheme]) => [
        name,
        withoutUndefined({
          sensitiveScopes: scheme["x-sensitive-scopes"] as string[] | undefined,
          accessToken: scheme["x-access-token"] as OAuthRules["accessToken"],
          flows: Object.fromEntries(
            Object.entries((scheme.flows ?? {}) as Record<string, Node>).map(([flow, rules]) => [
              flow,
              withoutUndefined({
                authorizationUrl: rules.authorizationUrl as string | undefined,
                tokenUrl: rules.tokenUrl as string | undefined,
                refreshUrl: rules.refreshUrl as string | undefined,
                pkce: rules["x-pkce"] as OAuthFlowRules["pkce"],
                scopes: Object.keys((rules.scopes ?? {}) as Node),
              }),
            ]),
          ),
        }),
      ]),
  );
  const retryBackoff = (schemas.ErrorCode?.["x-retry-backoff"] ?? null) as RetryBackoff | null;
  const successEnvelope = envelopeFields(document, schemas.SuccessEnvelope);
  const rateLimit = ((document as Node)["x-rate-limit"] ?? null) as RateLimit | null;
  const rateLimits = ((document as Node)["x-rate-limits"] ?? null) as RateLimitEntry[] | null;
  const requestBodyLimit = ((document as Node)["x-request-body-limit"] as { maxBytes: number } | undefined)?.maxBytes ?? null;
  const defaultTimeoutMs = seconds((document as Node)["x-timeout-seconds"]) ?? null;
  const idempotencyRetentionMs = seconds((document as Node)["x-idempotency-retention-seconds"]) ?? null;
  return { operations, operationBehaviour: behaviours, errorCodes, retryBackoff, successEnvelope, rateLimit, requestBodyLimit, defaultTimeoutMs, apiKeys, rateLimits, idempotencyRetentionMs, oauth };
}

/** `export const name = … as const;` (`null` cannot take a const assertion, and needs none). */
const constant = (name: string, value: unknown) =>
  value === null ? `export const ${name} = null;` : `export const ${name} = ${JSON.stringify(value, null, 2)} as const;`;

/** A platform's focused operations: the ones the description tags `Focused: <platform>` (design.md's tags). */
export const isFocused = (rules: OperationRules): boolean => rules.platform !== undefined && rules.tag === `Focused: ${rules.platform}`;

/**
 * The table as a TypeScript module: `as const` data, so consumers get literal types (operationIds, platforms, codes).
 * The focused operations are a constant of their own (`focusedOperations`), so that a client's main entry, which
 * imports `operations`, bundles none of them; a consumer that serves every operation (the sandbox) merges the two.
 */
export function renderOperationTable(table: OperationTable): string {
  const split = (focused: boolean) => Object.fromEntries(Object.entries(table.operations).filter(([, rules]) => isFocused(rules) === focused));
  const { operations: _all, ...rest } = table;
  return [
    ...Object.entries({ operations: split(false), focusedOperations: split(true), ...rest }).flatMap(([name, value]) => [constant(name, value), ""]),
    "export type OperationId = keyof typeof operations | keyof typeof focusedOperations;",
    "export type ErrorCode = keyof typeof errorCodes;",
    "",
  ].join("\n");
}
