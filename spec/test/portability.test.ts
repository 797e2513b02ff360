// What third-party tools trip on, held off for good: each finding of the generators, Spectral and `redocly score` on the
// bundles that could come back is a check here. The reasons are in spec/README.md and the issue that fixed them.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { loadBundle } from "./load.js";

const apis = ["scraper", "platform", "platform-legacy", "connect"] as const;
type Node = Record<string, unknown>;

/** Keys under which a schema holds subschemas: one, a map of them, or a list. */
const ONE = ["items", "not", "contains", "if", "then", "else", "propertyNames", "unevaluatedItems"];
const MAP = ["properties", "patternProperties", "$defs", "dependentSchemas"];
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];

/** Every schema of a document with where it is: component schemas, parameter, header and media-type schemas, and below. */
function schemasOf(document: Node): [pointer: string, schema: unknown][] {
  const found: [string, unknown][] = [];
  const visitSchema = (schema: unknown, at: string) => {
    found.push([at, schema]);
    if (!schema || typeof schema !== "object") return;
    const node = schema as Node;
    for (const key of ONE) if (key in node) visitSchema(node[key], `${at}/${key}`);
    for (const key of MAP) for (const [name, child] of Object.entries((node[key] ?? {}) as Node)) visitSchema(child, `${at}/${key}/${name}`);
    for (const key of LIST) for (const [index, child] of ((node[key] ?? []) as unknown[]).entries()) visitSchema(child, `${at}/${key}/${index}`);
  };
  const walk = (node: unknown, at: string) => {
    if (!node || typeof node !== "object") return;
    for (const [key, child] of Object.entries(node as Node)) {
      if (key === "schema") visitSchema(child, `${at}/schema`);
      else if (key === "schemas" && at === "#/components") for (const [name, s] of Object.entries(child as Node)) visitSchema(s, `${at}/schemas/${name}`);
      else if (key !== "examples" && key !== "example") walk(child, `${at}/${key}`);
    }
  };
  walk(document, "#");
  return found;
}

const includes = (type: unknown, name: string) => type === name || (Array.isArray(type) && type.includes(name));

describe.each(apis)("%s, as third-party tools read it", (api) => {
  const document = loadBundle(api) as Node;
  const schemas = schemasOf(document);

  it("has no boolean schema (redocly score cannot walk one; a forbidden field is `not: {}`)", () => {
    expect(schemas.filter(([, schema]) => typeof schema === "boolean").map(([at]) => at)).toEqual([]);
  });

  it("says whether every object is open (a bare `type: object` is Record<string, never> in openapi-typescript)", () => {
    const bare = schemas.filter(([, schema]) => {
      const node = (schema ?? {}) as Node;
      return includes(node.type, "object") && !["properties", "additionalProperties", "patternProperties", "allOf", "anyOf", "oneOf", "$ref"].some((k) => k in node);
    });
    expect(bare.map(([at]) => at)).toEqual([]);
  });

  it("gives every array its items (Spectral's array-items)", () => {
    const bare = schemas.filter(([, schema]) => includes((schema as Node | undefined)?.type, "array") && !("items" in (schema as Node) || "prefixItems" in (schema as Node)));
    expect(bare.map(([at]) => at)).toEqual([]);
  });

  it("names no component after a JavaScript global, twice across kinds, or as a generator derives names from operation ids", () => {
    const components = (document.components ?? {}) as Record<string, Node>;
    const names = [...Object.keys(components.schemas ?? {}), ...Object.keys(components.parameters ?? {})];
    const globals = names.filter((name) => name in globalThis || ["Record", "Partial", "Required", "Readonly", "Pick", "Omit"].includes(name));
    expect(globals, "shadows a global").toEqual([]);
    expect(names.filter((name, index) => names.indexOf(name) !== index), "a schema and a parameter share a name").toEqual([]);
    const operationIds = Object.values((document.paths ?? {}) as Record<string, Node>).flatMap((item) =>
      Object.values(item).flatMap((operation) => ((operation as Node | undefined)?.operationId ? [String((operation as Node).operationId)] : [])),
    );
    // @hey-api/openapi-ts names its types <OperationId>Data, …Error(s), …Response(s), and numbers a clash (`ExecutePayoutResponse2`).
    const derived = new Set(operationIds.flatMap((id) => ["Data", "Error", "Errors", "Response", "Responses"].map((suffix) => `${id[0]?.toUpperCase()}${id.slice(1)}${suffix}`)));
    expect(names.filter((name) => derived.has(name)), "clashes with a generated name").toEqual([]);
  });

  it("tells each server's environment and defaults its host to a name that never resolves", () => {
    const servers = [
      ...((document.servers ?? []) as Node[]),
      ...Object.values((document.paths ?? {}) as Record<string, Node>).flatMap((item) => (item.servers ?? []) as Node[]),
    ];
    expect(servers.length).toBeGreaterThan(0);
    for (const server of servers) {
      expect(String(server.description), String(server.url)).toMatch(/\b(production|sandbox)\b/i);
      const hosts = Object.values((server.variables ?? {}) as Record<string, Node>).map((variable) => String(variable.default));
      expect(hosts, String(server.url)).toEqual(["api.example.invalid"]);
    }
    expect(JSON.stringify(document)).not.toMatch(/api\.example\.com/);
  });

  it("gives every request body an example (generated workflows have something to send)", () => {
    for (const item of Object.values((document.paths ?? {}) as Record<string, Node>)) {
      for (const operation of Object.values(item) as Node[]) {
        const content = ((operation?.requestBody as Node | undefined)?.content ?? {}) as Record<string, Node>;
        for (const [mediaType, media] of Object.entries(content)) {
          expect("example" in media || Object.keys((media.examples ?? {}) as Node).length > 0, `${String(operation.operationId)} ${mediaType}`).toBe(true);
        }
      }
    }
  });
});

describe("redocly score", () => {
  const cli = new URL("../node_modules/@redocly/cli/bin/cli.js", import.meta.url).pathname;
  const score = async (api: string) => {
    const { stdout } = await promisify(execFile)(process.execPath, [cli, "score", new URL(`../dist/${api}.json`, import.meta.url).pathname, "--format", "json"], {
      encoding: "utf8",
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    });
    return JSON.parse(stdout.slice(stdout.indexOf("{"))) as { agentReadiness: number; subscores: Record<string, number> };
  };
  const percent = (value: number | undefined) => `${Math.round((value ?? 0) * 100)}%`;

  // Each score is a Redocly CLI process of several seconds; on a loaded machine, tens: one at a time, generously bounded.
  it("scores every surface without crashing, with the figures spec/README.md reports", { timeout: 300_000 }, async () => {
    const rows: string[] = [];
    for (const api of apis) {
      const { agentReadiness, subscores } = await score(api);
      rows.push(`| ${api} | ${agentReadiness} | ${percent(subscores.exampleCoverage)} | ${percent(subscores.errorClarity)} | ${percent(subscores.polymorphismClarity)} |`);
    }
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    for (const row of rows) expect(readme, "update the score table in spec/README.md").toContain(row);
  });
});
