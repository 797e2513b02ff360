import { readFileSync } from "node:fs";
import { ScraperClient } from "@content-scraper/client";
import { checkNumber, type Redactor } from "@content-scraper/runtime";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, type CallToolResult, ErrorCode, ListToolsRequestSchema, McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { allowOperations } from "./allow.js";
import { McpInputError } from "./errors.js";
import { callOperationTool } from "./operation-tool.js";
import { quote, quoteToolDefinition, quoteToolName } from "./quote-tool.js";
import { type Allowance, allowanceOf, type SessionClients } from "./allowance.js";
import { failure, toolResult } from "./results.js";
import { walkTool, walkToolDefinition, walkToolName } from "./walk-tool.js";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

/** The options of `createScraperMcp`. */
export interface ScraperMcpOptions {
  /**
   * The scraper client every tool calls through: its key, pacing and retries, and its `budget`, which is the server's
   * allowance (required: `createScraperClient({ budget: { maxCredits } })`, with a Redis store to share it).
   */
  client: ScraperClient;
  /** The operations to expose: operationIds, patterns of them (`*Profile`), tags or platforms. Default: all. */
  allow?: readonly string[] | undefined;
  /** Each session's own allowance, inside the server's (a budget `withBudget` adds to the client). Default: none. */
  sessionMaxCredits?: number | undefined;
  /** The client talks to the sandbox (`--dry-run`): every answer says so. */
  sandbox?: boolean | undefined;
  /**
   * Removes more credentials (a Redis password) from every answer; the client's key is removed from each in any case,
   * data included (the client's own errors hold none already).
   */
  redactor?: Redactor | undefined;
}

/** A tool as `tools/list` answers it. */
export interface McpToolDefinition {
  name: string;
  title?: string;
  description: string;
  /** A JSON Schema (2020-12) of the tool's arguments. */
  inputSchema: { type: "object"; [keyword: string]: unknown };
  annotations?: { readOnlyHint?: boolean; openWorldHint?: boolean; idempotentHint?: boolean; destructiveHint?: boolean };
  _meta?: Record<string, unknown>;
}

/**
 * One session: an MCP server of the official SDK, for one transport. Its declarations stay the SDK's own (a consumer
 * type-checks none of them through this package: some name DOM types a Node-only project does not have).
 */
export interface McpSession {
  /** Serves the session over one of the SDK's transports (`StdioServerTransport`, `StreamableHTTPServerTransport`, `InMemoryTransport`). */
  connect(transport: object): Promise<void>;
  close(): Promise<void>;
}

/** The MCP server: its tools, and a session for each transport. */
export interface ScraperMcp {
  /** What `tools/list` answers: one tool per allowed operation, generated from the description, plus `quote` and `walk`. */
  readonly tools: readonly McpToolDefinition[];
  /** An MCP server for one session (one transport), its allowance inside the server's. */
  session(): McpSession;
}

const inputError = (field: string, message: string) => new McpInputError(field, message);

/** What the server tells an agent on connecting: how it is billed and limited, and how to stay within it. */
function instructions(allowance: Allowance, sessionMaxCredits: number | undefined, sandbox: boolean): string {
  const session = sessionMaxCredits === undefined ? "" : ` and ${sessionMaxCredits} per session`;
  return [
    sandbox ? "Dry run: every answer comes from the Content Scraper sandbox, not the service." : "Tools of the Content Scraper API.",
    "Each operation tool costs credits: its description gives the price and what is billed, refunded and free.",
    `This server holds a hard allowance of ${allowance.server.maxCredits} credits${session}; it refuses a call that would pass it before sending, saying what is left.`,
    `Price a plan with "${quoteToolName}" first; read long listings with "${walkToolName}", a page at a time.`,
  ].join(" ");
}

/**
 * The MCP server of the Content Scraper API, on a scraper client: a tool per allowed operation, generated from the
 * description, plus `quote` (prices a plan, sends nothing) and `walk` (a listing a page at a time, resumable). Every
 * call goes through the client's pipeline; its budget is the allowance, refused before sending.
 */
export async function createScraperMcp(options: ScraperMcpOptions): Promise<ScraperMcp> {
  if (typeof options !== "object" || options === null) throw new McpInputError("options", "createScraperMcp takes { client, allow, sessionMaxCredits }.");
  const { client } = options;
  if (!(client instanceof ScraperClient)) throw new McpInputError("client", "client must be a client made by createScraperClient().");
  if ((await client.budgetState()) === undefined) {
    throw new McpInputError("client", "the client has no budget, and the server's allowance is the client's budget: createScraperClient({ budget: { maxCredits } }).");
  }
  const sessionMaxCredits = options.sessionMaxCredits === undefined ? undefined : checkNumber("sessionMaxCredits", options.sessionMaxCredits, 0, { integer: true }, inputError);
  const sandbox = options.sandbox === true;
  // The client's key in any form, and what the caller's redactor adds (a Redis password): in no answer, whatever the data held.
  const redact = (text: string) => client.redact(options.redactor ? options.redactor.text(text) : text);
  const operations = allowOperations(options.allow);
  const byName = new Map(operations.map((operation) => [operation.tool.name, operation]));
  const listings = new Map(operations.filter(({ rules }) => rules.paging).map((operation) => [operation.rules.operationId, operation]));
  const tools: McpToolDefinition[] = [...operations.map(({ tool }) => tool), quoteToolDefinition(operations), ...(listings.size > 0 ? [walkToolDefinition([...listings.values()])] : [])];
  const serverInstructions = instructions(await allowanceOf({ server: client, session: client }), sessionMaxCredits, sandbox);

  /** One tool call: its answer with the allowance left, or a tool error saying what happened and what is left. */
  async function call(clients: SessionClients, name: string, args: unknown, signal: AbortSignal): Promise<CallToolResult> {
    const operation = byName.get(name);
    if (!operation && name !== quoteToolName && !(name === walkToolName && listings.size > 0)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const marked = (structured: Record<string, unknown>) => (sandbox ? { ...structured, sandbox } : structured);
    try {
      let structured: Record<string, unknown>;
      let stoppedOn: unknown;
      if (operation) structured = await callOperationTool(clients.session, operation, args, signal);
      else if (name === quoteToolName) structured = quote(byName, args, await allowanceOf(clients));
      else ({ structured, stoppedOn } = await walkTool(clients.session, listings, args, signal));
      const allowance = await allowanceOf(clients);
      if (stoppedOn === undefined) return toolResult(marked({ ...structured, allowance }), redact);
      // A walk that stopped on an error keeps what it read and where to resume; with nothing read, it is a tool error.
      const empty = (structured.items as unknown[]).length === 0;
      return toolResult(marked({ ...structured, error: failure(stoppedOn, allowance), allowance }), redact, empty);
    } catch (error) {
      const allowance = await allowanceOf(clients).catch(() => undefined);
      return toolResult(marked({ error: failure(error, allowance), ...(allowance ? { allowance } : {}) }), redact, true);
    }
  }

  return {
    tools,
    session() {
      const clients = { server: client, session: sessionMaxCredits === undefined ? client : client.withBudget({ maxCredits: sessionMaxCredits }) };
      const server = new Server({ name: "content-scraper", title: "Content Scraper API", version }, { capabilities: { tools: {} }, instructions: serverInstructions });
      server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools as Tool[] }));
      // The agent's `notifications/cancelled` aborts `extra.signal`, which the client's call is given.
      server.setRequestHandler(CallToolRequestSchema, ({ params }, extra) => call(clients, params.name, params.arguments, extra.signal));
      return server;
    },
  };
}
