import { describe, expect, it } from "vitest";
import { deref, loadBundle, operations, type Response } from "./load.js";

// The facts of the reference's sections 4, 5, 7 and 8, read back from the bundled description.
const document = loadBundle("scraper");
const ops = new Map(operations(document).map(({ path, operation }) => [operation.operationId, { path, operation }]));
const schemas = (document.components as { schemas: Record<string, Record<string, unknown>> }).schemas;

const platforms = ["shortvideo", "photoshare", "videosite", "socialnet", "ephemeral", "microblog", "professional"];
const focused = ["favorites", "reposts", "playlists", "hashtag", "collection", "search-suggestions", "regions"];
const camel = (segment: string) => segment.replace(/(^|-)([a-z])/g, (_m, _dash, c: string) => c.toUpperCase());

const expected = [
  ...platforms.flatMap((p) => ["profile", "posts", "post"].map((r) => [`${p}${camel(r)}`, `/scrape/${p}/${r}`])),
  ["shortvideoAudience", "/scrape/shortvideo/audience"],
  ["photoshareAudience", "/scrape/photoshare/audience"],
  ...focused.map((r) => [`shortvideo${camel(r)}`, `/scrape/shortvideo/${r}`]),
];

function response(operationId: string, status: string): Response {
  const ref = ops.get(operationId)?.operation.responses[status];
  if (!ref) throw new Error(`${operationId} has no ${status}`);
  return deref<Response>(document, ref);
}

describe("the scraper description", () => {
  it("has exactly the 30 operations at their real paths, all POST", () => {
    expect([...ops.entries()].map(([id, { path }]) => [id, path]).sort()).toEqual([...expected].sort());
    expect(Object.keys(document.paths as object)).toHaveLength(30);
    expect(operations(document).map(({ method }) => method)).toEqual(Array(30).fill("post"));
  });

  it("is version 1.3.0, served under {host}/api/v1 and authenticated by x-api-key", () => {
    expect((document.info as { version: string }).version).toBe("1.3.0");
    const [server] = document.servers as Array<{ url: string; variables: Record<string, unknown> }>;
    expect(server?.url).toMatch(/^https:\/\/\{host\}\/api\/v1$/);
    expect(server?.variables).toHaveProperty("host");
    const scheme = (document.components as { securitySchemes: Record<string, Record<string, string>> }).securitySchemes.ScraperApiKey;
    expect(scheme).toMatchObject({ type: "apiKey", in: "header", name: "x-api-key" });
    expect(scheme?.description).toContain("scrape_live_");
    expect(scheme?.description).toMatch(/backend only/i);
    expect(document.security).toEqual([{ ScraperApiKey: [] }]);
  });

  it("prices audience at a fixed 25 credits and everything else at the account's rate, standard 1", () => {
    for (const [id, { operation }] of ops) {
      const audience = id.endsWith("Audience");
      expect(operation["x-credits"], id).toEqual({ standard: audience ? 25 : 1, accountRate: !audience });
    }
  });

  it("recommends 90 s timeouts on videosite and socialnet and 60 s elsewhere", () => {
    for (const [id, { operation }] of ops) {
      expect(operation["x-timeout-seconds"], id).toBe(/^(videosite|socialnet)/.test(id) ? 90 : 60);
    }
  });

  it("pages cursor platforms on next_cursor and never issues one on ephemeral and professional", () => {
    const sizes: Record<string, [number, boolean]> = {
      shortvideo: [30, true], photoshare: [12, true], videosite: [30, true], socialnet: [30, false],
      ephemeral: [30, false], microblog: [20, true], professional: [11, false],
    };
    for (const platform of platforms) {
      const operation = ops.get(`${platform}Posts`)?.operation;
      const paging = operation?.["x-paging"] as { mode: string; response?: string; pageSize: { max: number; exact: boolean; min?: number } };
      const single = platform === "ephemeral" || platform === "professional";
      expect(paging.mode, platform).toBe(single ? "single-page" : "cursor");
      expect([paging.pageSize.max, paging.pageSize.exact], platform).toEqual(sizes[platform]);
      if (!single) expect(paging.response).toBe("next_cursor");
      const schema = JSON.stringify(response(`${platform}Posts`, "200").content?.["application/json"]?.schema);
      const page = schemas[JSON.parse(schema).$ref.split("/").pop().replace(/Response$/, "")];
      expect(JSON.stringify(page).includes('"next_cursor":{"not":{}}'), platform).toBe(single);
    }
    expect(ops.get("professionalPosts")?.operation["x-paging"]).toMatchObject({ pageSize: { min: 1 } });
  });

  it("offers contentType on the videosite posts request only", () => {
    for (const platform of platforms) {
      const schema = JSON.stringify(ops.get(`${platform}Posts`)?.operation.requestBody?.content["application/json"]?.schema);
      expect(schema.includes("VideositePostsRequest"), platform).toBe(platform === "videosite");
    }
  });

  it("documents the error responses on every operation, with 404 wherever something can be missing", () => {
    const base = ["200", "400", "401", "402", "413", "429", "500", "502", "504", "default"];
    for (const [id, { operation }] of ops) {
      const statuses = Object.keys(operation.responses).sort();
      expect(statuses, id).toEqual([...base, ...(id === "shortvideoRegions" ? [] : ["404"])].sort());
    }
  });

  it("bills by outcome: 200 and 404 billed, rejections free, 5xx refunded", () => {
    const billing: Record<string, string> = {
      "200": "billed", "400": "free", "401": "free", "402": "free", "404": "billed", "413": "free", "429": "free",
      "500": "refunded", "502": "refunded", "504": "refunded", default: "by-code",
    };
    for (const [id, { operation }] of ops) {
      for (const status of Object.keys(operation.responses)) {
        expect(response(id, status)["x-billing"], `${id} ${status}`).toBe(billing[status]);
      }
    }
  });

  it("sends the five X-Scraper headers on every 200, the charge on every error, and Retry-After on 429", () => {
    const ok = ["X-Scraper-Credits-Charged", "X-Scraper-Credits-Remaining", "X-Scraper-RateLimit-Limit", "X-Scraper-RateLimit-Remaining", "X-Scraper-RateLimit-Reset"];
    for (const id of ops.keys()) {
      for (const header of ok) {
        expect(deref<{ required: boolean }>(document, response(id, "200").headers?.[header]).required, `${id} ${header}`).toBe(true);
      }
      for (const status of ["400", "401", "402", "413", "429", "500", "502", "504", "default"]) {
        expect(Object.keys(response(id, status).headers ?? {}), `${id} ${status}`).toContain("X-Scraper-Credits-Charged");
      }
      expect(Object.keys(response(id, "429").headers ?? {})).toEqual(
        expect.arrayContaining(["Retry-After", "X-Scraper-RateLimit-Limit", "X-Scraper-RateLimit-Remaining", "X-Scraper-RateLimit-Reset"]),
      );
    }
  });

  it("describes the gateway's bare text/plain 504 beside the service's JSON one", () => {
    const content = response("videositePosts", "504").content ?? {};
    expect(Object.keys(content).sort()).toEqual(["application/json", "text/plain"]);
    expect(content["text/plain"]?.schema).toMatchObject({ type: "string" });
  });

  it("lists every error code with the status, billing and retry class the reference gives, leaving unshown ones null", () => {
    const codes = schemas.ErrorCode as { enum: string[]; "x-error-codes": Record<string, { status: unknown; billing: unknown; retry: unknown }> };
    expect(Object.keys(codes["x-error-codes"]).sort()).toEqual([...codes.enum].sort());
    expect(codes.enum).toHaveLength(14);
    expect(codes["x-error-codes"].SCRAPER_SYSTEM_BUSY).toEqual({ status: null, billing: "refunded", retry: "retry-after" });
    expect(codes["x-error-codes"].ENDPOINT_NOT_FOUND).toEqual({ status: null, billing: null, retry: "never" });
    expect(codes["x-error-codes"].PROFILE_NOT_FOUND).toEqual({ status: 404, billing: "billed", retry: "never" });
    expect(codes["x-error-codes"].SCRAPER_RATE_LIMITED).toEqual({ status: 429, billing: "free", retry: "retry-after" });
    expect(codes["x-error-codes"].UPSTREAM_TIMEOUT).toEqual({ status: "5XX", billing: "refunded", retry: "backoff" });
  });

  it("keeps error bodies free of meta and success bodies carrying it", () => {
    expect(schemas.ErrorEnvelope?.properties).toMatchObject({ meta: { not: {} } });
    expect(schemas.SuccessEnvelope?.required).toEqual(["data", "request_id", "upstream_calls", "meta"]);
  });

  it("marks every gap the reference leaves open with x-not-shown and says so in words", () => {
    const gaps: string[] = [];
    (function walk(node: unknown, path: string) {
      if (!node || typeof node !== "object") return;
      const record = node as Record<string, unknown>;
      if ("x-not-shown" in record) {
        gaps.push(path);
        expect(String(record.description), path).toMatch(/not shown/);
      }
      for (const [key, child] of Object.entries(record)) walk(child, `${path}/${key}`);
    })(document, "#");
    const marked = gaps.join("\n");
    for (const gap of ["Profile", "Audience", "AudienceRequest", "UnifiedPost/properties/contentType", "ErrorCode", "CreatorRequest", "HashtagRequest"]) {
      expect(marked).toContain(`/schemas/${gap}`);
    }
  });
});
