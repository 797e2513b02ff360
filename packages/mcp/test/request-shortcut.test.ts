// The shortcut where requests arrive (src/request-shortcut.ts) must change nothing but the time: every message, well
// formed or not, gets the same answer and the same reported error as from the SDK's own Server.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { type JSONRPCMessage, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
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
};

/** What a server sends back, and the errors it reports, for each message in turn. */
async function answers(server: Server): Promise<{ sent: unknown[]; errors: string[] }> {
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
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
    // The comparison means something: requests were answered, and malformed messages reported.
    expect(sdks.sent.length).toBeGreaterThanOrEqual(4);
    expect(sdks.errors.length).toBeGreaterThanOrEqual(3);
  });

  it("finds the SDK's request path it goes to (an SDK without it would make tool calls slower, not wrong)", () => {
    expect(typeof (Server.prototype as unknown as { _onrequest?: unknown })._onrequest).toBe("function");
  });
});
