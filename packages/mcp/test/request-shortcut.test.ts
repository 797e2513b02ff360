// The shortcut where requests arrive (src/request-shortcut.ts) must change nothing but the time: every message, well
// formed or not, gets the same answer and the same reported error as from the SDK's own Server.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  type JSONRPCMessage,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { ScraperMcpServer } from "../src/request-shortcut.js";

const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
const messages: Record<string, unknown> = {
  "a request": { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
  "a request with a string id": { jsonrpc: "2.0", id: "a", method: "tools/list" },
  "a request of an unknown method": { jsonrpc: "2.0", id: 3, method: "resources/list", params: {} },
  "a request with a key JSON-RPC does not have": { jsonrpc: "2.0", id: 4, method: "tools/list", params: {}, extra: true },
  "a request of another JSON-RPC version": { jsonrpc: "1.0", id: 5, method: "tools/list" },
  "a request whose id is an object": { jsonrpc: "2.0", id: {}, method: "tools/list" },
  "a request whose method is not a string": { jsonrpc: "2.0", id: 6, method: 7 },
  "a notification": { jsonrpc: "2.0", method: "notifications/initialized" },
  "a response to no request": { jsonrpc: "2.0", id: 99, result: {} },
  "an error response with a method": { jsonrpc: "2.0", id: 98, method: "x", error: { code: 1, message: "m" } },
  "a tool call": { jsonrpc: "2.0", id: 10, method: "tools/call", params: { name: "ok", arguments: { a: 1 } } },
  "a tool call with a progress token": { jsonrpc: "2.0", id: 11, method: "tools/call", params: { name: "ok", _meta: { progressToken: 1 } } },
  "a tool call the server refuses": { jsonrpc: "2.0", id: "12", method: "tools/call", params: { name: "refused" } },
  "a tool call whose handler fails": { jsonrpc: "2.0", id: 13, method: "tools/call", params: { name: "broken" } },
  "a tool call whose handler throws before its promise": { jsonrpc: "2.0", id: 19, method: "tools/call", params: { name: "throws" } },
  "a tool call without a name": { jsonrpc: "2.0", id: 14, method: "tools/call", params: { arguments: {} } },
  "a tool call that asks for a task": { jsonrpc: "2.0", id: 15, method: "tools/call", params: { name: "ok", task: { ttl: 1000 } } },
  "a tool call related to a task": { jsonrpc: "2.0", id: 16, method: "tools/call", params: { name: "ok", _meta: { "io.modelcontextprotocol/related-task": { taskId: "t" } } } },
  "a tool call cancelled while it runs": { jsonrpc: "2.0", id: 17, method: "tools/call", params: { name: "slow" } },
  "its cancellation": { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 17, reason: "enough" } },
  "a tool call after it": { jsonrpc: "2.0", id: 18, method: "tools/call", params: { name: "ok" } },
};

/** The same tools on both servers: an answer, a refusal, two failures, and one that waits until it is cancelled. */
function tool(params: CallToolRequest["params"], signal: AbortSignal): Promise<CallToolResult> {
  const answer = { content: [{ type: "text" as const, text: params.name }], structuredContent: { arguments: params.arguments ?? null } };
  if (params.name === "refused") return Promise.reject(new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`));
  if (params.name === "broken") return Promise.reject(new Error("the tool broke"));
  if (params.name === "throws") throw new Error("the tool threw at once");
  if (params.name === "slow") return new Promise((resolve) => signal.addEventListener("abort", () => resolve(answer)));
  return Promise.resolve(answer);
}

/** What a server sends back, and the errors it reports, for each message in turn. */
async function answers(server: Server): Promise<{ sent: unknown[]; errors: string[] }> {
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
  if (server instanceof ScraperMcpServer) server.serveToolCalls(tool);
  else server.setRequestHandler(CallToolRequestSchema, (request, extra) => tool(request.params, extra.signal));
  const errors: string[] = [];
  server.onerror = (error) => errors.push(error.message);
  const [peer, serverSide] = InMemoryTransport.createLinkedPair();
  const sent: unknown[] = [];
  peer.onmessage = (message) => sent.push(message);
  await server.connect(serverSide);
  await peer.start();
  for (const message of [initialize, ...Object.values(messages)]) {
    await peer.send(message as JSONRPCMessage);
    await new Promise((resolve) => setImmediate(resolve));
  }
  await server.close();
  return { sent, errors };
}

describe("the request shortcut", () => {
  it("answers every message as the SDK's own Server does, and reports the same errors", async () => {
    const info = { name: "same", version: "1" };
    const options = { capabilities: { tools: {} } };
    const ours = await answers(new ScraperMcpServer(info, options));
    const sdks = await answers(new Server(info, options));
    expect(ours).toEqual(sdks);
    // The comparison means something: requests were answered, tool calls with results and errors (none for the
    // cancelled one), and malformed messages reported.
    expect(sdks.sent.length).toBeGreaterThanOrEqual(10);
    const ids = sdks.sent.map((message) => (message as { id?: unknown }).id);
    expect(ids).toEqual(expect.arrayContaining([10, 11, "12", 13, 19, 14, 18]));
    expect(ids).not.toContain(17);
    expect(sdks.errors.length).toBeGreaterThanOrEqual(3);
  });

  it("finds the SDK's request path and cancellation registry it uses (an SDK without them would make tool calls slower, not wrong)", () => {
    expect(typeof (Server.prototype as unknown as { _onrequest?: unknown })._onrequest).toBe("function");
    const server = new Server({ name: "sdk", version: "1" }, { capabilities: { tools: {} } });
    expect((server as unknown as { _requestHandlerAbortControllers?: unknown })._requestHandlerAbortControllers).toBeInstanceOf(Map);
  });
});
