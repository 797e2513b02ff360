import type { OpenApiDocument } from "./openapi-json-schema.js";
import { type Billing, deref, operationTable } from "./operation-table.js";

// The MCP tools of a priced surface (the scraper): one per operation with `x-credits`, everything an agent reads taken
// from the description, so that no tool is written by hand.

/** An MCP tool, as `tools/list` answers it. */
export interface McpTool {
  /** The operationId. */
  name: string;
  /** The operation's `summary`. */
  title: string;
  /** The first paragraph of the operation's `description`, then its price and what is billed, refunded and free. */
  description: string;
  /** The JSON request body's schema, with every `$ref` inlined and the vendor extensions left out. */
  inputSchema: { type: "object"; [keyword: string]: unknown };
  /** Every priced operation looks data up on a platform: it changes nothing (read-only) and reaches outside (open world). */
  annotations: { readOnlyHint: true; openWorldHint: true };
  /** The operation's `x-credits`, for a client that shows prices. */
  _meta: { "content-scraper/credits": { standard: number; accountRate: boolean } };
}

type Node = Record<string, unknown>;

/**
 * `schema` with every `$ref` replaced by what it names and every `x-…` key dropped: a tool's input schema stands alone
 * (a client gets no `components` to resolve against) and carries no keyword a strict validator would refuse. The
 * extensions' meaning is in the schemas' `description` already (`x-not-shown` has its sentence there).
 */
export function inlineSchema(document: OpenApiDocument, schema: unknown, seen: readonly string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inlineSchema(document, item, seen));
  if (schema === null || typeof schema !== "object") return schema;
  const node = schema as Node;
  if (typeof node.$ref === "string") {
    if (seen.includes(node.$ref)) throw new Error(`${node.$ref} refers to itself: a tool's input schema cannot inline it`);
    return inlineSchema(document, deref(document, node), [...seen, node.$ref]);
  }
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => !key.startsWith("x-"))
      .map(([key, value]) => [key, inlineSchema(document, value, seen)]),
  );
}

const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? "" : "s"}`;

/** The codes a response's body names in its `error` (a `const`), through `allOf`. */
function errorCodesOf(document: OpenApiDocument, response: Node): string[] {
  const schema = deref(document, (response.content as Node | undefined)?.["application/json"] && ((response.content as Node)["application/json"] as Node).schema);
  const branches = [schema, ...((schema?.allOf as unknown[] | undefined) ?? []).map((branch) => deref(document, branch))];
  return branches.flatMap((branch) => {
    const error = deref(document, (branch?.properties as Node | undefined)?.error);
    return error?.const !== undefined ? [String(error.const)] : [];
  });
}

/**
 * What an operation costs, from its `x-credits`, `x-paging` and each response's `x-billing` (a `by-code` response by the
 * codes of `x-error-codes` with no status of their own): "Costs 1 credit per page … Billed: 200, 404 PROFILE_NOT_FOUND.
 * Refunded: 500, 502, 504, SCRAPER_SYSTEM_BUSY. Free: 400, 401, 402, 413, 429.".
 */
function priceText(document: OpenApiDocument, operation: Node, errorCodes: ReturnType<typeof operationTable>["errorCodes"]): string {
  const credits = operation["x-credits"] as McpTool["_meta"]["content-scraper/credits"];
  const unit = operation["x-paging"] ? "per page" : "per call";
  const price = credits.accountRate
    ? `Costs ${plural(credits.standard, "credit")} ${unit} at the standard rate; the account's own rate may differ, and meta.creditsCharged says what was charged.`
    : `Costs ${plural(credits.standard, "credit")} ${unit}, whatever the account.`;
  const outcomes: Record<Exclude<Billing, "by-code">, string[]> = { billed: [], refunded: [], free: [] };
  for (const [status, reference] of Object.entries((operation.responses ?? {}) as Node)) {
    const response = deref(document, reference);
    const billing = response["x-billing"] as Billing | undefined;
    if (billing === "by-code") {
      for (const [code, rules] of Object.entries(errorCodes)) if (rules.status === null && rules.billing) outcomes[rules.billing].push(code);
    } else if (billing) {
      // A billed error is named by its code (what costs the agent credits); the free and refunded ones by status, briefly.
      const [code, ...others] = billing === "billed" ? errorCodesOf(document, response) : [];
      outcomes[billing].push(code && others.length === 0 ? `${status} ${code}` : status);
    }
  }
  const lines = Object.entries(outcomes)
    .filter(([, entries]) => entries.length > 0)
    .map(([billing, entries]) => `${billing[0]?.toUpperCase()}${billing.slice(1)}: ${entries.join(", ")}.`);
  return [price, ...lines].join(" ");
}

/** The top-level keywords the major model hosts refuse in a tool's input schema (Anthropic's and OpenAI's tool APIs). */
export const refusedAtTop = ["oneOf", "anyOf", "allOf", "enum", "not"] as const;

/** `into` with an object branch of an `allOf` merged in: its properties and required fields (a property both define must be the same). */
function mergeObject(into: Node, branch: Node, operationId: string): Node {
  if (branch.type !== undefined && branch.type !== "object") throw new Error(`${operationId}: an allOf branch of its request is not an object`);
  const properties = { ...((into.properties as Node | undefined) ?? {}) };
  for (const [name, property] of Object.entries((branch.properties as Node | undefined) ?? {})) {
    if (name in properties && JSON.stringify(properties[name]) !== JSON.stringify(property)) throw new Error(`${operationId}: two allOf branches define ${name} differently`);
    properties[name] = property;
  }
  const required = [...new Set([...((into.required as string[] | undefined) ?? []), ...((branch.required as string[] | undefined) ?? [])])];
  return { ...into, description: into.description ?? branch.description, properties, ...(required.length > 0 ? { required } : {}) };
}

/**
 * The request's schema as a tool's input schema every major model host accepts: `type: "object"` with `properties` at
 * its root and no combinator there (Anthropic's and OpenAI's tool APIs refuse a whole tool list over one such schema).
 * An `allOf` of object schemas (the videosite posts request extends the posts request so) is merged into one; a `oneOf`
 * or `anyOf` whose branches each require other fields (the focused operations' `handle` or `unique_id`) becomes its
 * rule in words, in the description. The server still checks every call against the full request schema.
 */
export function hostSchema(schema: Node, operationId: string): McpTool["inputSchema"] {
  const { allOf, oneOf, anyOf, ...rest } = schema;
  let result: Node = { ...rest, type: rest.type ?? "object" };
  for (const branch of (allOf as Node[] | undefined) ?? []) result = mergeObject(result, branch, operationId);
  for (const [keyword, alternatives] of [
    ["oneOf", oneOf],
    ["anyOf", anyOf],
  ] as const) {
    if (alternatives === undefined) continue;
    const fields = (alternatives as Node[]).map((branch) => branch.required as string[] | undefined);
    if (fields.some((required) => !required || required.length === 0)) throw new Error(`${operationId}: a ${keyword} branch of its request requires no field, which a tool's description cannot state`);
    const choices = fields.map((required) => (required as string[]).map((field) => `\`${field}\``).join(" and ")).join(", ");
    const rule = `Send ${keyword === "oneOf" ? "exactly one" : "at least one"} of ${choices}: a call that does not is refused before it is sent.`;
    result.description = [result.description, rule].filter(Boolean).join("\n\n");
  }
  result.properties ??= {};
  const refused = refusedAtTop.filter((keyword) => keyword in result);
  if (result.type !== "object" || refused.length > 0) throw new Error(`${operationId}: a tool's input must be a plain object schema; it has ${refused.join(", ") || `type ${String(result.type)}`} at its top`);
  return result as McpTool["inputSchema"];
}

/** The first paragraph of a description, on one line. */
const firstParagraph = (text: unknown) => String(text ?? "").split(/\n\s*\n/)[0]?.replace(/\s+/g, " ").trim() ?? "";

/** One MCP tool per priced operation of the document (those with `x-credits`), in the document's order. */
export function mcpTools(document: OpenApiDocument): McpTool[] {
  const { errorCodes } = operationTable(document);
  const tools: McpTool[] = [];
  for (const item of Object.values((document.paths ?? {}) as Record<string, Node>)) {
    for (const operation of Object.values(item) as Node[]) {
      if (typeof operation !== "object" || operation === null || !operation["x-credits"]) continue;
      const body = deref(document, operation.requestBody);
      const schema = ((body?.content as Node | undefined)?.["application/json"] as Node | undefined)?.schema;
      const inputSchema = hostSchema((schema ? inlineSchema(document, schema) : { type: "object", additionalProperties: false }) as Node, String(operation.operationId));
      tools.push({
        name: String(operation.operationId),
        title: String(operation.summary ?? operation.operationId),
        description: [firstParagraph(operation.description), priceText(document, operation, errorCodes)].filter(Boolean).join("\n\n"),
        inputSchema,
        annotations: { readOnlyHint: true, openWorldHint: true },
        _meta: { "content-scraper/credits": operation["x-credits"] as McpTool["_meta"]["content-scraper/credits"] },
      });
    }
  }
  return tools;
}

/** The tools as a TypeScript module: `tools`, a plain array to answer `tools/list` with. */
export function renderMcpTools(document: OpenApiDocument): string {
  return [
    "/** An MCP tool of an operation, as `tools/list` answers it. */",
    "export interface GeneratedTool {",
    "  name: string;",
    "  title: string;",
    "  description: string;",
    "  inputSchema: { type: \"object\"; [keyword: string]: unknown };",
    "  annotations: { readOnlyHint: boolean; openWorldHint: boolean };",
    "  _meta: { \"content-scraper/credits\": { standard: number; accountRate: boolean } };",
    "}",
    "",
    `export const tools: readonly GeneratedTool[] = ${JSON.stringify(mcpTools(document), null, 2)};`,
    "",
  ].join("\n");
}
