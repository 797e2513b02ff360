// The third-party tester in CI: a property-based run of every surface's description against the sandbox. No npm tool
// runs an OpenAPI description's property tests offline on Node 20 (Schemathesis is Python; the npm fuzzers generate
// requests but check nothing), so this is fast-check over the request schemas the validators are compiled from: bodies
// built from each schema, and bodies that break it, on every operation, with credentials of every kind. Every answer
// must be a status the operation documents, with a body valid against it, the headers the reference promises, and no
// 5xx.
//
// Exclusions, each with the reference's reason:
// - The scraper's magic words (`busy`, `upstreamerror`, …) are not generated: they ask for the refunded 5xx failures on
//   purpose (reference 7.1, "UPSTREAM_ERROR … refunded"); the coverage matrix reaches those.
// - Bodies over 32 KB are not generated: 413 PAYLOAD_TOO_LARGE is answered before any schema (reference 4.1.2), and
//   the coverage matrix and errors tests reach it.
// - The rate limits are raised for the run: a 429 is a documented answer (reference 8.2), but the run would otherwise
//   spend most of its requests on it.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { magicInputs, type RunningMock } from "@content-scraper/mock";
import { validateResponse as validatePlatform } from "@content-scraper/validators/platform";
import { validateResponse as validateLegacy } from "@content-scraper/validators/platform-legacy";
import { validateRequest as scraperRequest, validateResponse as validateScraper } from "@content-scraper/validators/scraper";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "./support.js";

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema | boolean>;
  required?: string[];
  additionalProperties?: Schema | boolean;
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  default?: unknown;
};
type Operation = {
  operationId: string;
  parameters?: Array<{ name: string; in: string; schema?: Schema }>;
  requestBody?: { content: Record<string, { schema?: Schema }> };
  responses: Record<string, { headers?: Record<string, { required?: boolean }> }>;
  servers?: Array<{ url: string }>;
};
type Description = { servers: Array<{ url: string }>; paths: Record<string, Record<string, Operation> & { servers?: Array<{ url: string }> }> };
const load = (api: string) => JSON.parse(readFileSync(createRequire(import.meta.url).resolve(`@content-scraper/spec/${api}.deref.json`), "utf8")) as Description;
const serverPath = (url: string) => new URL(url.replace(/\{[^}]*\}/g, "host")).pathname.replace(/\/$/, "");

// Runs per operation: about 45 operations × 100 runs stay well within a minute on two busy cores.
const numRuns = 100;
const seed = 20_251_123;
const magicWords = new Set(magicInputs.map((magic) => magic.input));

const merge = (a: Schema, b: Schema): Schema => ({
  ...a,
  ...b,
  properties: { ...a.properties, ...b.properties },
  required: [...(a.required ?? []), ...(b.required ?? [])],
});

/** Values a JSON Schema (the subset the descriptions use) accepts, as a fast-check arbitrary. */
function arbitraryOf(schema: Schema | boolean | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (schema === undefined || schema === true) return fc.jsonValue({ maxDepth: 2 });
  if (schema === false) return fc.constant(undefined);
  const { oneOf, anyOf, allOf, ...rest } = schema;
  if (allOf) return arbitraryOf(allOf.reduce(merge, rest), depth);
  const branches = oneOf ?? anyOf;
  if (branches) return fc.oneof(...branches.map((branch) => arbitraryOf(merge(rest, branch), depth)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : schema.properties ? ["object"] : [];
  if (types.length > 1) return fc.oneof(...types.map((type) => arbitraryOf({ ...schema, type }, depth)));
  switch (types[0]) {
    case "string":
      return (schema.pattern ? fc.stringMatching(new RegExp(schema.pattern)) : fc.string({ maxLength: 40 })).filter((text) => !magicWords.has(text.replace(/^@/, "").toLowerCase()));
    case "integer":
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return depth > 2 ? fc.constant([]) : fc.array(arbitraryOf(schema.items, depth + 1), { maxLength: 3 });
    case "object": {
      const entries = Object.entries(schema.properties ?? {}).filter(([, property]) => property !== false);
      const record = fc.record(Object.fromEntries(entries.map(([name, property]) => [name, arbitraryOf(property, depth + 1)])), {
        requiredKeys: (schema.required ?? []).filter((name) => entries.some(([known]) => known === name)),
      });
      return record;
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A body as the schema has it, one that breaks it, or bytes that are no JSON at all. */
function bodies(schema: Schema | undefined): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 3, arbitrary: arbitraryOf(schema).map((value) => (value === undefined ? undefined : JSON.stringify(value))) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  );
}

/** Whether the description documents `status` for the operation (exactly, by its range, or by `default`). */
const documents = (operation: Operation, status: number) =>
  [String(status), `${String(status)[0]}XX`, "default"].some((key) => Object.hasOwn(operation.responses, key));

/** The response headers the description marks required for the documented response of `status`. */
function requiredHeaders(operation: Operation, status: number): string[] {
  const response = operation.responses[String(status)] ?? operation.responses[`${String(status)[0]}XX`] ?? operation.responses.default;
  return Object.entries(response?.headers ?? {})
    .filter(([, header]) => header.required)
    .map(([name]) => name.toLowerCase());
}

let mock: RunningMock;
beforeAll(async () => {
  mock = await startSandbox({ seed: "property", requestsPerMinute: 1_000_000 });
});
afterAll(() => mock.close());

type Answer = { status: number; headers: Headers; body: unknown; contentType: string };
async function send(method: string, path: string, headers: Record<string, string>, body: string | undefined): Promise<Answer> {
  const response = await fetch(mock.url + path, { method, headers, body, redirect: "manual" });
  const text = await response.text();
  const contentType = response.headers.get("content-type") ?? "";
  return { status: response.status, headers: response.headers, contentType, body: contentType.includes("json") && text ? JSON.parse(text) : text };
}

/** The property every answer holds: a documented status, not 5xx, a valid body, the required headers. */
function conforms(operation: Operation, answer: Answer, validate: (id: never, status: number, body: unknown, options: { contentType: string }) => { valid: boolean }) {
  expect(answer.status, JSON.stringify(answer.body).slice(0, 200)).toBeLessThan(500);
  expect(documents(operation, answer.status), `${operation.operationId} answered an undocumented ${answer.status}`).toBe(true);
  if (answer.body !== "" && !answer.contentType.includes("html")) {
    expect(validate(operation.operationId as never, answer.status, answer.body, { contentType: answer.contentType }), JSON.stringify(answer.body).slice(0, 300)).toEqual({
      valid: true,
    });
  }
  for (const name of requiredHeaders(operation, answer.status)) expect(answer.headers.has(name), `${operation.operationId} ${answer.status} lacks ${name}`).toBe(true);
}

describe("the scraper description", () => {
  const description = load("scraper");
  const base = serverPath(description.servers[0]?.url as string);
  const keys = fc.constantFrom("scrape_live_property", "scrape_live_property_2", undefined, "sk_test_property", "scrape_live_");

  it.each(Object.entries(description.paths).map(([path, item]) => [item.post?.operationId, path, item.post as Operation] as const))("%s", async (_id, path, operation) => {
    const schema = operation.requestBody?.content["application/json"]?.schema;
    await fc.assert(
      fc.asyncProperty(keys, bodies(schema), async (key, body) => {
        const answer = await send("POST", base + path, { "content-type": "application/json", ...(key ? { "x-api-key": key } : {}) }, body);
        conforms(operation, answer, validateScraper);
        // A body the schema accepts, on a valid key with credits, is a billed success.
        const parsed = (() => {
          try {
            return body === undefined ? undefined : JSON.parse(body);
          } catch {
            return Symbol("malformed");
          }
        })();
        if (key?.startsWith("scrape_live_property") && typeof parsed !== "symbol" && scraperRequest(operation.operationId as never, parsed).valid) {
          expect(answer.status).toBe(200);
          for (const name of ["x-scraper-credits-charged", "x-scraper-credits-remaining", "x-scraper-ratelimit-limit", "x-scraper-ratelimit-remaining", "x-scraper-ratelimit-reset"]) {
            expect(answer.headers.has(name)).toBe(true);
          }
        }
      }),
      { numRuns, seed },
    );
  });
});

describe.each([
  ["platform", validatePlatform, ["Bearer property", "Bearer sandbox_expired", "Bearer sandbox_no_subscription", "Bearer sandbox_insufficient_scope", "Bearer sandbox_forbidden", "Basic abc", undefined]],
  ["platform-legacy", validateLegacy, ["company_property", "company_invalid", "company_no_subscription", "company_restricted", "scrape_live_property", undefined]],
] as const)("the %s description", (api, validate, credentials) => {
  const description = load(api);
  const operations = Object.entries(description.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method, operation]) => method !== "servers" && method !== "parameters" && typeof operation === "object" && "operationId" in operation)
      .map(([method, operation]) => {
        const server = (operation as Operation).servers?.[0]?.url ?? item.servers?.[0]?.url ?? description.servers[0]?.url ?? "/";
        return [(operation as Operation).operationId, method.toUpperCase(), serverPath(server) + path, operation as Operation] as const;
      }),
  );

  it.each(operations)("%s", async (_id, method, template, operation) => {
    const [mediaType, content] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
    const query = fc.record(
      Object.fromEntries(
        (operation.parameters ?? []).filter((parameter) => parameter.in === "query").map((parameter) => [parameter.name, fc.oneof(arbitraryOf(parameter.schema), fc.string({ maxLength: 8 }))]),
      ),
      { requiredKeys: [] },
    );
    const form = fc.dictionary(fc.constantFrom("grant_type", "code", "client_id", "redirect_uri", "code_verifier", "refresh_token", "scope", "token"), fc.string({ maxLength: 12 }));
    const body = mediaType === "application/x-www-form-urlencoded" ? form.map((fields) => new URLSearchParams(fields as Record<string, string>).toString()) : bodies(content?.schema);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...credentials),
        fc.stringMatching(/^[a-z0-9_]{1,12}$/),
        query,
        content ? body : fc.constant(undefined),
        fc.option(fc.string({ maxLength: 210 }), { nil: undefined }),
        async (credential, id, parameters, sent, idempotencyKey) => {
          const search = new URLSearchParams(Object.entries(parameters).map(([name, value]) => [name, String(value)])).toString();
          const path = template.replace(/\{[^}]+\}/g, id) + (search ? `?${search}` : "");
          const headers: Record<string, string> = {
            ...(mediaType ? { "content-type": mediaType } : {}),
            ...(credential ? (api === "platform" ? { authorization: credential } : { "x-api-key": credential }) : {}),
            ...(idempotencyKey !== undefined ? { "idempotency-key": idempotencyKey } : {}),
          };
          conforms(operation, await send(method, path, headers, sent), validate as never);
        },
      ),
      { numRuns, seed },
    );
  });
});
