import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { OperationRules } from "@content-scraper/codegen";
import type { FaultSpec } from "./control/plane.js";
import { operations as platformOperations } from "./generated/platform.operations.js";
import { legacyKeys, legacyNotFoundId } from "./platform-legacy/surface.js";
import { platformIds, platformTokens } from "./platform/surface.js";
import { sandboxKeys } from "./scraper/keys.js";
import { scraperOperations } from "./scraper/rules.js";
import { serverPath } from "./surface-kit.js";

// The coverage matrix: every documented status of every operation of every surface, every billing outcome and paging
// edge, with the input or control call that reaches it in the sandbox. The rows are made from the descriptions (their
// statuses) and the sandbox's own tables (magic inputs, keys, tokens, ids, faults); a test sends every row's request to
// a real sandbox, and the README and the sandbox guide show the table `renderCoverage()` makes of them.

/** One HTTP request, as plain data; `{{name}}` in a string is the field of that name in the previous step's JSON answer. */
export interface ProbeRequest {
  method: string;
  /** From the host's root, with the query (`/api/v1/scrape/shortvideo/profile`). */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** What reaches a row: control calls and requests first, then the request whose answer is the row's. */
export interface Probe extends ProbeRequest {
  before?: Array<{ inject: FaultSpec } | { advanceSeconds: number } | { request: ProbeRequest }>;
}

export interface CoverageRow {
  surface: "scraper" | "platform" | "platformLegacy";
  /** The operationId. */
  operation: string;
  /** The documented response (`200`, `4XX`, `default`), or the paging edge or billing outcome, in words. */
  documented: string;
  /** The status the sandbox answers with. */
  status: number;
  /** The billing outcome, on the scraper (`billed`, `free`, `refunded`). */
  billing?: string;
  /** How to reach it, in a few words. */
  how: string;
  probe: Probe;
  /** What else the answer must show (an edge's property), or `undefined` when the status is the whole point. */
  check?: (body: unknown) => string | undefined;
}

type Description = { servers?: Array<{ url: string }>; paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>> };
const require = createRequire(import.meta.url);
const load = (api: string) => JSON.parse(readFileSync(require.resolve(`@content-scraper/spec/${api}.json`), "utf8")) as Description;

/** Every documented response of a description, by operationId, in the description's order. */
export function documentedStatuses(api: string): Map<string, string[]> {
  const statuses = new Map<string, string[]>();
  for (const item of Object.values(load(api).paths)) {
    for (const operation of Object.values(item)) {
      if (typeof operation === "object" && operation?.operationId && operation.responses) statuses.set(operation.operationId, Object.keys(operation.responses));
    }
  }
  return statuses;
}

const json = { "content-type": "application/json" };
const identifierFields = ["username", "url", "handle", "unique_id", "hashtag", "query"];

// ——— the scraper ———

function scraperRows(): CoverageRow[] {
  const base = serverPath(load("scraper").servers?.[0]?.url ?? "/");
  const examples = load("scraper").paths as unknown as Record<string, { post: { requestBody?: { content: Record<string, { example?: Record<string, unknown> }> } } }>;
  const rows: CoverageRow[] = [];
  for (const [operation, statuses] of documentedStatuses("scraper")) {
    const rules: OperationRules = scraperOperations[operation as keyof typeof scraperOperations];
    const path = base + rules.path;
    const example = examples[rules.path]?.post.requestBody?.content["application/json"]?.example ?? {};
    const field = identifierFields.find((name) => name in example) ?? (rules.resource === "audience" ? "username" : undefined);
    /** The example with a magic word as its identifier (a URL's last segment), or `undefined` where it has none. */
    const magic = (word: string) => {
      if (!field) return undefined;
      const value = field === "url" ? `${String(example.url).replace(/\/[^/]*$/, "")}/${word}` : word;
      return JSON.stringify({ ...example, [field]: value });
    };
    // A key per operation: `ratelimited` spends its whole bucket.
    const key = { "x-api-key": `scrape_live_coverage_${operation}`, ...json };
    const row = (documented: string, status: number, how: string, probe: Probe): CoverageRow => ({
      surface: "scraper",
      operation,
      documented,
      status,
      billing: rules.billing[documented] === "by-code" ? "refunded (`SCRAPER_SYSTEM_BUSY`)" : rules.billing[documented],
      how,
      probe,
    });
    const viaMagic = (documented: string, status: number, word: string) => {
      const body = magic(word);
      return body
        ? row(documented, status, `${field} \`${word}\``, { method: "POST", path, headers: key, body })
        : row(documented, status, `fault: \`inject({ operation: "${operation}", status: ${status} })\``, {
            method: "POST",
            path,
            headers: key,
            body: JSON.stringify(example),
            before: [{ inject: { operation, status } }],
          });
    };
    for (const documented of statuses) {
      if (documented === "200") rows.push(row(documented, 200, "the description's request example", { method: "POST", path, headers: key, body: JSON.stringify(example) }));
      else if (documented === "400") rows.push(row(documented, 400, "a body that is not an object (`[]`)", { method: "POST", path, headers: key, body: "[]" }));
      else if (documented === "401") rows.push(row(documented, 401, "no `x-api-key`, or `scrape_live_revoked`", { method: "POST", path, headers: json, body: JSON.stringify(example) }));
      else if (documented === "402")
        rows.push(row(documented, 402, `key \`${sandboxKeys.empty}\` (or \`setBalance(key, 0)\`)`, { method: "POST", path, headers: { ...key, "x-api-key": sandboxKeys.empty }, body: JSON.stringify(example) }));
      else if (documented === "404") rows.push(viaMagic(documented, 404, "notfound"));
      else if (documented === "413") rows.push(row(documented, 413, "a body over 32 KB", { method: "POST", path, headers: key, body: JSON.stringify({ ...example, padding: "x".repeat(33 * 1024) }) }));
      else if (documented === "429") {
        const limited = viaMagic(documented, 429, "ratelimited");
        rows.push({ ...limited, probe: { ...limited.probe, headers: { ...key, "x-api-key": `scrape_live_coverage_limited_${operation}` } } });
      }
      else if (documented === "500") rows.push(viaMagic(documented, 500, "internalerror"));
      else if (documented === "502") rows.push(viaMagic(documented, 502, "upstreamerror"));
      else if (documented === "504") rows.push(viaMagic(documented, 504, "upstreamtimeout"));
      else if (documented === "default") rows.push(viaMagic(documented, 503, "busy"));
    }
  }
  return rows;
}

function scraperEdges(): CoverageRow[] {
  const base = serverPath(load("scraper").servers?.[0]?.url ?? "/");
  const key = { "x-api-key": "scrape_live_coverage_edges", ...json };
  const posts = (platform: string, body: object, before?: Probe["before"]): Probe => ({ method: "POST", path: `${base}/scrape/${platform}/posts`, headers: key, body: JSON.stringify(body), before });
  const data = (body: unknown) => (body as { data: { posts: unknown[]; next_cursor?: string } }).data;
  const pageSize = scraperOperations.shortvideoPosts.paging.pageSize.max;
  return [
    {
      surface: "scraper",
      operation: "shortvideoPosts",
      documented: "page one overshoots the page size",
      status: 200,
      billing: "billed",
      how: "username `overshoot`",
      probe: posts("shortvideo", { username: "overshoot" }),
      check: (body) => (data(body).posts.length > pageSize ? undefined : `page one has ${data(body).posts.length} posts`),
    },
    {
      surface: "scraper",
      operation: "shortvideoPosts",
      documented: "a short page after it",
      status: 200,
      billing: "billed",
      how: "username `overshoot`, its `next_cursor`",
      probe: posts("shortvideo", { username: "overshoot", cursor: "{{next_cursor}}" }, [{ request: posts("shortvideo", { username: "overshoot" }) }]),
      check: (body) => (data(body).posts.length < pageSize ? undefined : `page two has ${data(body).posts.length} posts`),
    },
    {
      surface: "scraper",
      operation: "shortvideoPosts",
      documented: "no retrievable posts: an empty page",
      status: 200,
      billing: "billed",
      how: "username `nopost`",
      probe: posts("shortvideo", { username: "nopost" }),
      check: (body) => (data(body).posts.length === 0 && data(body).next_cursor === undefined ? undefined : "the page is not empty and last"),
    },
    {
      surface: "scraper",
      operation: "shortvideoPosts",
      documented: "a stale cursor: page one",
      status: 200,
      billing: "billed",
      how: "cursor `stale`",
      probe: posts("shortvideo", { username: "creator", cursor: "stale" }),
    },
    {
      surface: "scraper",
      operation: "professionalPosts",
      documented: "a single page, never a `next_cursor`",
      status: 200,
      billing: "billed",
      how: "any `username`",
      probe: posts("professional", { username: "creator" }),
      check: (body) => (data(body).next_cursor === undefined ? undefined : "a single-page platform issued a cursor"),
    },
    {
      surface: "scraper",
      operation: "shortvideoPosts",
      documented: "new posts at the front of page one",
      status: 200,
      billing: "billed",
      how: "`advance(72 * 3600)`, then page one again",
      probe: posts("shortvideo", { username: "creator" }, [{ advanceSeconds: 72 * 3600 }]),
    },
    {
      surface: "scraper",
      operation: "shortvideoProfile",
      documented: "the gateway's bare 504 (`text/plain`)",
      status: 504,
      billing: "refunded",
      how: "username `gatewaytimeout`",
      probe: { method: "POST", path: `${base}/scrape/shortvideo/profile`, headers: key, body: JSON.stringify({ username: "gatewaytimeout" }) },
      check: (body) => (typeof body === "string" ? undefined : "the 504 is JSON"),
    },
  ];
}

// ——— the OAuth platform API ———

const redirectUri = "https://app.example/oauth/callback";

function platformRows(): CoverageRow[] {
  const document = load("platform");
  const base = serverPath(document.servers?.[0]?.url ?? "/");
  const rows: CoverageRow[] = [];
  const register = (grantTypes: string[]): ProbeRequest => ({
    method: "POST",
    path: `${base}/register`,
    headers: json,
    body: JSON.stringify({ client_name: `coverage ${grantTypes.join(" ")}`, redirect_uris: [redirectUri], grant_types: grantTypes }),
  });
  const form = { "content-type": "application/x-www-form-urlencoded" };
  for (const [operation, statuses] of documentedStatuses("platform")) {
    const rules = platformOperations[operation as keyof typeof platformOperations] as (typeof platformOperations)[keyof typeof platformOperations] & {
      security?: readonly string[];
      server?: string;
      idempotencyKey?: { required: boolean };
    };
    const root = rules.server === undefined ? base : serverPath(rules.server);
    const path = (id = "id_1") => root + rules.path.replace("{id}", id);
    const write = rules.method === "POST";
    const body: Record<string, string> = write ? json : {};
    const key: Record<string, string> = rules.idempotencyKey ? { "idempotency-key": `coverage-${operation}` } : {};
    const resource = (token: string, extra: Partial<ProbeRequest> = {}): Probe => ({
      method: rules.method,
      path: path(),
      headers: { authorization: `Bearer ${token}`, ...body, ...key },
      ...(write ? { body: "{}" } : {}),
      ...extra,
    });
    const row = (documented: string, status: number, how: string, probe: Probe): CoverageRow => ({ surface: "platform", operation, documented, status, how, probe });
    const fault = (documented: string, status: number, probe: Probe) =>
      row(documented, status, `fault: \`inject({ operation: "${operation}", status: ${status} })\``, { ...probe, before: [{ inject: { operation, status } }] });

    for (const documented of statuses) {
      if (rules.security?.length === 0) {
        // The protocol endpoints.
        if (operation === "authorizeClient") {
          // The client_id as is: it may be a `{{client_id}}` to fill in.
          const query = (clientId: string) =>
            `?client_id=${clientId}&${new URLSearchParams({ response_type: "code", redirect_uri: redirectUri, code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256" })}`;
          if (documented === "3XX")
            rows.push(row(documented, 302, "a registered client and redirect URI (or a recoverable error)", { method: "GET", path: path() + query("{{client_id}}"), before: [{ request: register(["authorization_code"]) }] }));
          if (documented === "400") rows.push(row(documented, 400, "an unregistered `client_id` (the HTML page)", { method: "GET", path: path() + query("sandbox_client_unregistered") }));
          continue;
        }
        const success: Record<string, Probe> = {
          registerClient: register(["authorization_code"]),
          requestToken: {
            method: "POST",
            path: path(),
            headers: form,
            body: "grant_type=client_credentials&client_id={{client_id}}&scope=posts%3Aread",
            before: [{ request: register(["client_credentials"]) }],
          },
          revokeToken: { method: "POST", path: path(), headers: form, body: "token=sandbox_rt_any" },
          getAuthorizationServerMetadata: { method: "GET", path: path() },
        };
        const probe = success[operation] as Probe;
        if (documented === "2XX") rows.push(row(documented, operation === "registerClient" ? 201 : 200, "a valid request (register a client first)", probe));
        else if (documented === "429") rows.push(fault(documented, 429, probe));
        else if (documented === "default" && operation === "registerClient") rows.push(row(documented, 400, "`redirect_uris` not an array", { ...probe, body: '{"redirect_uris":"x"}' }));
        else if (documented === "default" && operation === "requestToken") rows.push(row(documented, 400, "an unknown `grant_type`", { ...probe, body: "grant_type=password", before: undefined }));
        else if (documented === "default") rows.push(fault(documented, 500, probe));
        continue;
      }
      if (documented === "2XX") rows.push(row(documented, 200, "any other bearer token", resource("coverage")));
      else if (documented === "400") rows.push(row(documented, 400, "no `Idempotency-Key`", resource("coverage", { headers: { authorization: "Bearer coverage", ...json } })));
      else if (documented === "401") rows.push(row(documented, 401, "no token, `sandbox_expired`, or an issued token past 3600 s", resource("", { headers: { ...body, ...key } })));
      else if (documented === "402") rows.push(row(documented, 402, `token \`${platformTokens.noSubscription}\``, resource(platformTokens.noSubscription)));
      else if (documented === "403") rows.push(row(documented, 403, `token \`${platformTokens.insufficientScope}\` or \`${platformTokens.forbidden}\``, resource(platformTokens.insufficientScope)));
      else if (documented === "404") rows.push(row(documented, 404, `id \`${platformIds.notFound}\``, resource("coverage", { path: path(platformIds.notFound) })));
      else if (documented === "409") {
        const first = resource("coverage-conflict", { body: '{"amount":1}' });
        rows.push(row(documented, 409, "the same `Idempotency-Key` with another body", { ...resource("coverage-conflict", { body: '{"amount":2}' }), before: [{ request: first }] }));
      } else if (documented === "429") rows.push(row(documented, 429, `token \`${platformTokens.rateLimited}\``, resource(platformTokens.rateLimited)));
      else if (documented === "default") {
        const invalid = write ? resource("coverage", { body: "[]" }) : resource("coverage", { path: `${path()}?limit=100000` });
        rows.push(row(documented, 400, write ? "a body that is not an object (`invalid_request`)" : "`limit` over its maximum (`invalid_request`)", invalid));
      }
    }
  }
  return rows;
}

function platformEdges(): CoverageRow[] {
  const base = serverPath(load("platform").servers?.[0]?.url ?? "/");
  const list = (id: string, query = ""): Probe => ({ method: "GET", path: `${base}/webhooks/${id}/deliveries${query}`, headers: { authorization: "Bearer coverage" } });
  const page = (body: unknown) => body as { data: unknown[]; nextCursor: string | null; hasMore: boolean };
  return [
    {
      surface: "platform",
      operation: "listWebhookDeliveries",
      documented: "a page with more: `nextCursor`, `hasMore: true`",
      status: 200,
      how: "any id, `limit=2`",
      probe: list("wh_coverage", "?limit=2"),
      check: (body) => (page(body).hasMore && page(body).nextCursor && page(body).data.length === 2 ? undefined : "not a full page with more"),
    },
    {
      surface: "platform",
      operation: "listWebhookDeliveries",
      documented: "the last page: `nextCursor: null`, `hasMore: false`",
      status: 200,
      how: "any id, `limit=100`",
      probe: list("wh_coverage", "?limit=100"),
      check: (body) => (!page(body).hasMore && page(body).nextCursor === null ? undefined : "not the last page"),
    },
    {
      surface: "platform",
      operation: "listWebhookDeliveries",
      documented: "an empty list",
      status: 200,
      how: `id \`${platformIds.empty}\``,
      probe: list(platformIds.empty),
      check: (body) => (page(body).data.length === 0 && !page(body).hasMore ? undefined : "the list is not empty"),
    },
  ];
}

// ——— the key-based platform API ———

function legacyRows(): CoverageRow[] {
  const base = serverPath(load("platform-legacy").servers?.[0]?.url ?? "/");
  const rows: CoverageRow[] = [];
  for (const [operation, statuses] of documentedStatuses("platform-legacy")) {
    const path = (id = "post_1") => `${base}/posts/${id}/metrics-history`;
    const get = (key: string | undefined, at = path()): Probe => ({ method: "GET", path: at, headers: key ? { "x-api-key": key } : {} });
    const how: Record<string, [number, string, Probe]> = {
      "2XX": [200, "any company key", get("company_coverage")],
      "400": [400, "`limit` over 500", get("company_coverage", `${path()}?limit=501`)],
      "401": [401, `no key, or \`${legacyKeys.invalid}\``, get(legacyKeys.invalid)],
      "402": [402, `key \`${legacyKeys.noSubscription}\``, get(legacyKeys.noSubscription)],
      "403": [403, `key \`${legacyKeys.restricted}\``, get(legacyKeys.restricted)],
      "404": [404, `id \`${legacyNotFoundId}\``, get("company_coverage", path(legacyNotFoundId))],
      "429": [429, `key \`${legacyKeys.rateLimited}\``, get(legacyKeys.rateLimited)],
    };
    for (const documented of statuses) {
      const reach = how[documented];
      if (reach) rows.push({ surface: "platformLegacy", operation, documented, status: reach[0], how: reach[1], probe: reach[2] });
    }
  }
  return rows;
}

/** Every row of the matrix: documented statuses first, surface by surface, then billing outcomes and paging edges. */
export function coverage(): CoverageRow[] {
  return [...scraperRows(), ...scraperEdges(), ...platformRows(), ...platformEdges(), ...legacyRows()];
}

/**
 * The matrix as Markdown: one line per surface, operation and documented response. The scraper's operations, which
 * answer alike on every platform, are grouped where their ways of reaching a status are the same.
 */
export function renderCoverage(rows: readonly CoverageRow[] = coverage()): string {
  const lines = ["| Surface | Operations | Documented | Status | Billing | How to reach it |", "|---|---|---|---|---|---|"];
  const groups = new Map<string, { row: CoverageRow; operations: string[] }>();
  for (const row of rows) {
    const key = [row.surface, row.documented, row.status, row.billing, row.how].join("\u0000");
    const group = groups.get(key);
    if (group) group.operations.push(row.operation);
    else groups.set(key, { row, operations: [row.operation] });
  }
  for (const { row, operations } of groups.values()) {
    const names = operations.map((name) => `\`${name}\``).join(", ");
    lines.push(`| ${row.surface} | ${names} | ${row.documented} | ${row.status} | ${row.billing ?? ""} | ${row.how} |`);
  }
  return lines.join("\n");
}
