// Schemathesis's negative phase, our own: for every operation of every surface with operations, the description's valid
// request (its examples), then that request with each parameter and each body field left out, and then sent empty. The
// description says whether each is valid: the validators for bodies, the parameter's own schema for parameters (ajv,
// independent of the sandbox's code). The sandbox must agree: it refuses as invalid input exactly what the description
// refuses, and every answer is a status the operation documents, with a body valid against it. A disagreement either way
// is a mismatch; the run fails on the first one and prints the count of requests and mismatches.
//
// What "refused as invalid input" means per surface: the scraper's 400 `INVALID_INPUT`; the OAuth resource endpoints'
// 400 `invalid_request`; the protocol endpoints' RFC 6749 §5.2 and RFC 7591 §3.2.2 400s (`invalid_request`,
// `unsupported_grant_type`, `invalid_client_metadata`, `invalid_redirect_uri`), and on /authorize its 400 page or an error
// redirect (`invalid_request`, `unsupported_response_type`); the key-based API's 400. Any other answer (a success, 401
// `invalid_client`, a 404) took the request as well-formed.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { RunningMock } from "@content-scraper/mock";
import { validateRequest as platformRequest, validateResponse as platformResponse } from "@content-scraper/validators/platform";
import { validateRequest as legacyRequest, validateResponse as legacyResponse } from "@content-scraper/validators/platform-legacy";
import { validateRequest as scraperRequest, validateResponse as scraperResponse } from "@content-scraper/validators/scraper";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startSandbox } from "./support.js";

type Schema = Record<string, unknown>;
type Parameter = { name: string; in: string; required?: boolean; schema?: Schema; example?: unknown; examples?: Record<string, { value: unknown }> };
type Content = { schema?: Schema; example?: unknown; examples?: Record<string, { value: unknown }> };
type Operation = {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, Content> };
  responses: Record<string, unknown>;
  servers?: Array<{ url: string }>;
  security?: Array<Record<string, unknown>>;
};
type PathItem = Record<string, Operation> & { servers?: Array<{ url: string }>; parameters?: Parameter[] };
type Description = { servers: Array<{ url: string }>; paths: Record<string, PathItem> };

const load = (api: string) => JSON.parse(readFileSync(createRequire(import.meta.url).resolve(`@content-scraper/spec/${api}.deref.json`), "utf8")) as Description;
const serverPath = (url: string) => new URL(url.replace(/\{[^}]*\}/g, "host")).pathname.replace(/\/$/, "");
const methods = ["get", "put", "post", "delete", "patch"];

/** A surface's operations as the run sends them, with what it authenticates with. */
const surfaces = [
  { api: "scraper", validateRequest: scraperRequest, validateResponse: scraperResponse, credential: () => ({ "x-api-key": `scrape_live_empty_${randomUUID()}` }) },
  { api: "platform", validateRequest: platformRequest, validateResponse: platformResponse, credential: () => ({ authorization: `Bearer empty_${randomUUID()}` }) },
  { api: "platform-legacy", validateRequest: legacyRequest, validateResponse: legacyResponse, credential: () => ({ "x-api-key": `company_empty_${randomUUID()}` }) },
] as const;

const ajv = new Ajv2020({ strict: false, allErrors: false });
/** The description's verdict on a parameter's value as sent in a query or header (a string; integers as their digits). */
function parameterValid(parameter: Parameter, value: string | undefined): boolean {
  if (value === undefined) return !parameter.required;
  const schema = parameter.schema ?? {};
  const typed = schema.type === "integer" && /^-?\d+$/.test(value) ? Number(value) : value;
  return ajv.validate(schema, typed);
}

const exampleOf = (node: { example?: unknown; examples?: Record<string, { value: unknown }>; schema?: Schema }) =>
  node.example ?? Object.values(node.examples ?? {})[0]?.value ?? (node.schema?.examples as unknown[] | undefined)?.[0];

/** A value each header parameter can carry in a valid request: the example, and a fresh one for a key that must not repeat. */
const headerValue = (parameter: Parameter) => (parameter.name.toLowerCase() === "idempotency-key" ? `empty-values-${randomUUID()}` : String(exampleOf(parameter)));

interface Request {
  query: Record<string, string>;
  headers: Record<string, string>;
  /** The body as an object (JSON or form fields), `undefined` for none. */
  body: Record<string, unknown> | undefined;
}
interface Case {
  name: string;
  /** The request changed from the valid one; the description's verdict on it. */
  change: (request: Request) => Request;
  valid: (request: Request) => boolean;
}

/** The refusal of a request as invalid input, in the surface's terms (see the top of this file). */
function refused(api: string, operationId: string, status: number, body: unknown, location: string | null): boolean {
  if (operationId === "authorizeClient") {
    const error = location ? new URL(location).searchParams.get("error") : null;
    return status === 400 || (status >= 300 && status < 400 && (error === "invalid_request" || error === "unsupported_response_type"));
  }
  if (status !== 400) return false;
  const error = (body as { error?: unknown } | undefined)?.error;
  if (api === "scraper") return error === "INVALID_INPUT";
  if (api === "platform-legacy") return true;
  if (typeof error === "object" && error !== null) return (error as { code?: unknown }).code === "invalid_request";
  return ["invalid_request", "unsupported_grant_type", "invalid_client_metadata", "invalid_redirect_uri"].includes(String(error));
}

let mock: RunningMock;
beforeAll(async () => {
  mock = await startSandbox({ seed: "empty-values" });
});
afterAll(() => mock.close());

it("the sandbox refuses exactly the empty and missing values each surface's description refuses", { timeout: 240_000 }, async () => {
  const mismatches: string[] = [];
  let sent = 0;
  for (const { api, validateRequest, validateResponse, credential } of surfaces) {
    const description = load(api);
    for (const [template, item] of Object.entries(description.paths)) {
      for (const method of methods.filter((m) => item[m])) {
        const operation = item[method] as Operation;
        const id = operation.operationId;
        const server = operation.servers?.[0]?.url ?? item.servers?.[0]?.url ?? description.servers[0]?.url ?? "/";
        const path = serverPath(server) + template.replace(/\{[^}]+\}/g, "id_1");
        const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].filter((p) => p.in === "query" || p.in === "header");
        const [mediaType, content] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
        const form = mediaType === "application/x-www-form-urlencoded";
        const anonymous = operation.security?.some((requirement) => Object.keys(requirement).length === 0) ?? false;

        // The valid request: every parameter with an example, the body's example. A list's `cursor` is an opaque value only
        // the service issues (reference 4.5), so it comes from the list's first page, as Schemathesis's links would have it.
        const issued = parameters.some((p) => p.name === "cursor") ? await firstCursor(path, credential()) : undefined;
        const queryValue = (p: Parameter) => (p.name === "cursor" ? issued : exampleOf(p) === undefined ? undefined : String(exampleOf(p)));
        const valid = (): Request => ({
          query: Object.fromEntries(parameters.filter((p) => p.in === "query" && queryValue(p) !== undefined).map((p) => [p.name, queryValue(p) as string])),
          headers: Object.fromEntries(parameters.filter((p) => p.in === "header" && (p.required || exampleOf(p) !== undefined)).map((p) => [p.name, headerValue(p)])),
          body: content ? ((exampleOf(content) as Record<string, unknown> | undefined) ?? {}) : undefined,
        });
        const bodyValid = (request: Request) =>
          request.body === undefined ? !operation.requestBody?.required : validateRequest(id as never, request.body as never, { contentType: mediaType } as never).valid;
        const allValid = (request: Request) =>
          parameters.every((p) => parameterValid(p, p.in === "query" ? request.query[p.name] : request.headers[p.name])) && (!content || bodyValid(request));

        const cases: Case[] = [{ name: "the valid request", change: (r) => r, valid: allValid }];
        for (const parameter of parameters) {
          const where = parameter.in === "query" ? "query" : "headers";
          cases.push(
            { name: `${parameter.in} ${parameter.name} left out`, change: (r) => ({ ...r, [where]: without(r[where], parameter.name) }), valid: allValid },
            { name: `${parameter.in} ${parameter.name} empty`, change: (r) => ({ ...r, [where]: { ...r[where], [parameter.name]: "" } }), valid: allValid },
          );
        }
        if (content) {
          cases.push({ name: "no body", change: (r) => ({ ...r, body: undefined }), valid: allValid });
          cases.push({ name: "an empty body", change: (r) => ({ ...r, body: {} }), valid: allValid });
          for (const field of Object.keys(valid().body ?? {})) {
            cases.push(
              { name: `body field ${field} left out`, change: (r) => ({ ...r, body: without(r.body ?? {}, field) }), valid: allValid },
              { name: `body field ${field} empty`, change: (r) => ({ ...r, body: { ...r.body, [field]: "" } }), valid: allValid },
            );
          }
        }

        for (const { name, change, valid: verdict } of cases) {
          const request = change(valid());
          const expected = verdict(request) ? "accepted" : "refused";
          const search = new URLSearchParams(request.query).toString();
          const encoded =
            request.body === undefined
              ? undefined
              : form
                ? new URLSearchParams(Object.entries(request.body).map(([key, value]) => [key, String(value)])).toString()
                : JSON.stringify(request.body);
          const response = await fetch(`${mock.url}${path}${search ? `?${search}` : ""}`, {
            method: method.toUpperCase(),
            redirect: "manual",
            headers: { ...(anonymous || operation.security?.length === 0 ? {} : credential()), ...(encoded === undefined ? {} : { "content-type": mediaType as string }), ...request.headers },
            body: encoded,
          });
          sent++;
          const text = await response.text();
          const contentType = response.headers.get("content-type") ?? "";
          const body = contentType.includes("json") && text ? JSON.parse(text) : text;
          const actual = refused(api, id, response.status, body, response.headers.get("location")) ? "refused" : "accepted";
          const at = `${api} ${id}, ${name}`;
          if (actual !== expected) mismatches.push(`${at}: the description says ${expected}, the sandbox answered ${response.status} ${text.slice(0, 160)}`);
          const documented = [String(response.status), `${String(response.status)[0]}XX`, "default"].some((key) => Object.hasOwn(operation.responses, key));
          if (!documented) mismatches.push(`${at}: ${response.status} is not documented`);
          else if (text !== "" && !contentType.includes("html")) {
            const result = validateResponse(id as never, response.status as never, body as never, { contentType } as never);
            if (!result.valid) mismatches.push(`${at}: the ${response.status} body breaks the description: ${result.errors?.map((e) => e.message).join("; ")}`);
          }
        }
      }
    }
  }
  console.log(`empty and missing values: ${sent} requests, ${mismatches.length} mismatches between the sandbox and the descriptions`);
  expect(mismatches).toEqual([]);
});

/** The `nextCursor` of a list's first page, if it has a second. */
async function firstCursor(path: string, headers: Record<string, string>): Promise<string | undefined> {
  const page = (await (await fetch(`${mock.url}${path}`, { headers })).json()) as { nextCursor?: unknown };
  return typeof page.nextCursor === "string" ? page.nextCursor : undefined;
}

function without<T extends Record<string, unknown>>(record: T, key: string): T {
  const { [key]: _, ...rest } = record;
  return rest as T;
}
