import type { OpenApiDocument } from "./openapi-json-schema.js";

// The service's rules, read from the description's vendor extensions (spec/extensions.md) into one plain table.

export type Billing = "billed" | "free" | "refunded" | "by-code";

export interface Paging {
  mode: "cursor" | "single-page";
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
  typicalDurationMs?: { min: number; max: number };
  paging?: Paging;
  enrichment?: { transcript: boolean; comments: boolean; commentCap?: number };
  unknownFields?: "ignore" | "reject";
  requestBodyRequired: boolean;
  /** Billing outcome per documented status (`200`, `404`, `default`, …). */
  billing: Record<string, Billing>;
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
  errorCodes: Record<string, ErrorCodeRules>;
  /** The suggested backoff of `backoff` errors, where the surface documents one. */
  retryBackoff: RetryBackoff | null;
  /** The default rate limit, where the surface documents one. */
  rateLimit: RateLimit | null;
  apiKeys: Record<string, ApiKeyRules>;
}

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

function operationRules(document: OpenApiDocument, path: string, method: string, operation: Node): OperationRules {
  const [, platform, resource] = scrapePath.exec(path) ?? [];
  const duration = operation["x-typical-duration-seconds"] as { min: number; max: number } | undefined;
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
    typicalDurationMs: duration && { min: duration.min * 1000, max: duration.max * 1000 },
    paging: operation["x-paging"] as Paging | undefined,
    enrichment: operation["x-enrichment"] as OperationRules["enrichment"],
    unknownFields: operation["x-unknown-fields"] as OperationRules["unknownFields"],
    requestBodyRequired: Boolean(deref(document, operation.requestBody)?.required),
    billing: Object.fromEntries(
      Object.entries(responses).flatMap(([status, response]) => {
        const billing = deref(document, response)["x-billing"];
        return billing ? [[status, billing as Billing]] : [];
      }),
    ),
  };
  return withoutUndefined(rules);
}

/** Leaves out what the description does not state, so the table holds facts only. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

/** Reads every operation's rules and the error-code table from a bundled description. */
export function operationTable(document: OpenApiDocument): OperationTable {
  const operations: Record<string, OperationRules> = {};
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Node>)) {
    for (const method of methods) {
      const operation = item[method] as Node | undefined;
      if (operation) operations[String(operation.operationId)] = operationRules(document, path, method, operation);
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
        }),
      ]),
  );
  const retryBackoff = (schemas.ErrorCode?.["x-retry-backoff"] ?? null) as RetryBackoff | null;
  const rateLimit = ((document as Node)["x-rate-limit"] ?? null) as RateLimit | null;
  return { operations, errorCodes, retryBackoff, rateLimit, apiKeys };
}

/** The table as a TypeScript module: `as const` data, so consumers get literal types (operationIds, platforms, codes). */
export function renderOperationTable(table: OperationTable): string {
  return [
    `export const operations = ${JSON.stringify(table.operations, null, 2)} as const;`,
    "",
    `export const errorCodes = ${JSON.stringify(table.errorCodes, null, 2)} as const;`,
    "",
    `export const retryBackoff = ${JSON.stringify(table.retryBackoff, null, 2)} as const;`,
    "",
    `export const rateLimit = ${JSON.stringify(table.rateLimit, null, 2)} as const;`,
    "",
    `export const apiKeys = ${JSON.stringify(table.apiKeys, null, 2)} as const;`,
    "",
    "export type OperationId = keyof typeof operations;",
    "export type ErrorCode = keyof typeof errorCodes;",
    "",
  ].join("\n");
}
