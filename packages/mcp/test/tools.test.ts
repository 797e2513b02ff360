import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createScraperClient } from "@content-scraper/client";
import { mcpTools } from "@content-scraper/codegen";
import { startScriptedServer } from "@content-scraper/test-server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ErrorCode, type JSONRPCMessage, type Tool } from "@modelcontextprotocol/sdk/types.js";
import ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it, vi } from "vitest";
import { createScraperMcp, McpInputError, type ScraperMcp } from "../src/index.js";
import type { Answer } from "./helpers.js";

const require = createRequire(import.meta.url);
const description = JSON.parse(readFileSync(require.resolve("@content-scraper/spec/scraper.json"), "utf8"));
const client = (maxCredits = 100) => createScraperClient({ apiKey: "scrape_live_tools_test", baseUrl: "http://127.0.0.1:9/api/v1", budget: { maxCredits } });

/** The tool list an SDK client gets from a session of the server (over an in-memory transport). */
async function listed(allow?: string[]): Promise<Tool[]> {
  const mcp = await createScraperMcp({ client: client(), allow });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.session().connect(serverSide);
  const sdk = new Client({ name: "tools-test", version: "1" });
  await sdk.connect(clientSide);
  const { tools } = await sdk.listTools();
  await sdk.close();
  return tools;
}

describe("the tools are the description's operations", () => {
  it("one tool per priced operation, exactly as codegen reads it from the bundled description, plus quote and walk", async () => {
    const tools = await listed();
    const fromDescription = mcpTools(description);
    expect(fromDescription).toHaveLength(30);
    expect(tools.slice(0, -2)).toEqual(fromDescription);
    expect(tools.slice(-2).map((tool) => tool.name)).toEqual(["quote", "walk"]);
  });

  it("every tool is read-only; every operation tool is open-world and states its price and what is refunded", async () => {
    for (const tool of await listed()) {
      expect(tool.annotations?.readOnlyHint).toBe(true);
      if (tool.name === "quote") continue;
      expect(tool.annotations?.openWorldHint).toBe(true);
      if (tool.name === "walk") continue;
      const { standard } = (tool._meta as Record<string, { standard: number }>)["content-scraper/credits"] as { standard: number };
      expect(tool.description).toMatch(new RegExp(`Costs ${standard} credits? per (call|page)`));
      expect(tool.description).toContain("Refunded: 500, 502, 504, SCRAPER_SYSTEM_BUSY.");
    }
    const audience = (await listed(["shortvideoAudience"]))[0];
    expect(audience?.description).toContain("Costs 25 credits per call, whatever the account.");
  });

  it("every input schema is valid JSON Schema 2020-12 (against its meta-schema, unknown keywords refused), accepts the description's request examples and refuses a wrong type", async () => {
    // The checks codegen's own ajv runs on the descriptions (strictSchema): the type-consistency checks are style, not validity.
    const ajv = new ajv2020.default({ strictSchema: true, strictTypes: false, strictTuples: false, strictRequired: false, allErrors: true });
    for (const tool of await listed()) {
      const validate = ajv.compile(tool.inputSchema);
      const examples = (tool.inputSchema.examples as unknown[] | undefined) ?? [];
      for (const example of examples) expect(validate(example), `${tool.name} ${JSON.stringify(example)}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      expect(validate([]), tool.name).toBe(false);
    }
  });

  it("states a rule that no host-safe schema can carry in words, and refuses a call that breaks it before sending", async () => {
    const [favorites] = await listed(["shortvideoFavorites"]);
    expect(favorites?.inputSchema.description).toContain("Send exactly one of `handle`, `unique_id`");
    const mcp = await createScraperMcp({ client: client(), allow: ["shortvideoFavorites"] });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.session().connect(serverSide);
    const sdk = new Client({ name: "tools-test", version: "1" });
    await sdk.connect(clientSide);
    try {
      for (const args of [{ handle: "a", unique_id: "b" }, { cursor: "0" }]) {
        const result = await sdk.callTool({ name: "shortvideoFavorites", arguments: args });
        expect(result.isError, JSON.stringify(args)).toBe(true);
        expect((result.structuredContent as Answer).error).toMatchObject({ kind: "input" });
      }
    } finally {
      await sdk.close();
    }
  });
});

describe("--allow", () => {
  const names = async (allow: string[]) => (await listed(allow)).map((tool) => tool.name);

  it("takes operationIds, patterns of them, tags and platforms; walk only where a listing is allowed", async () => {
    expect(await names(["shortvideoProfile"])).toEqual(["shortvideoProfile", "quote"]);
    expect(await names(["*Profile"])).toEqual([
      "shortvideoProfile",
      "photoshareProfile",
      "videositeProfile",
      "socialnetProfile",
      "ephemeralProfile",
      "microblogProfile",
      "professionalProfile",
      "quote",
    ]);
    expect(await names(["Focused: shortvideo"])).toEqual([
      "shortvideoFavorites",
      "shortvideoReposts",
      "shortvideoPlaylists",
      "shortvideoHashtag",
      "shortvideoCollection",
      "shortvideoSearchSuggestions",
      "shortvideoRegions",
      "quote",
      "walk",
    ]);
    expect(await names(["photoshare", "microblogPost"])).toEqual(["photoshareProfile", "photosharePosts", "photosharePost", "photoshareAudience", "microblogPost", "quote", "walk"]);
  });

  it("offers quote and walk only over what it allows", async () => {
    const tools = await listed(["videositePosts", "shortvideoProfile"]);
    const schemaOf = (name: string) => tools.find((tool) => tool.name === name)?.inputSchema.properties as Answer;
    expect(schemaOf("quote").calls.items.properties.tool.enum).toEqual(["shortvideoProfile", "videositePosts"]);
    expect(schemaOf("walk").operation.enum).toEqual(["videositePosts"]);
  });

  it("refuses an entry that names nothing, naming it", async () => {
    await expect(createScraperMcp({ client: client(), allow: ["shortvideoProfil"] })).rejects.toThrow(McpInputError);
    await expect(createScraperMcp({ client: client(), allow: ["tiktok"] })).rejects.toMatchObject({ field: "allow", message: expect.stringContaining('"tiktok"') });
  });

  it("a profile-only tool list fits in a small context", async () => {
    for (const allow of [["*Profile"], ["shortvideoProfile"]]) {
      const bytes = Buffer.byteLength(JSON.stringify({ tools: await listed(allow) }));
      // About 4 bytes a token for English and JSON.
      console.log(`tool list of --allow ${allow.join(",")}: ${bytes} bytes, about ${Math.round(bytes / 4)} tokens`);
      expect(bytes).toBeLessThan(allow[0] === "*Profile" ? 12_000 : 3_000);
    }
  });
});

describe("what the server refuses to start with", () => {
  it("a client without a budget: the allowance is the client's budget", async () => {
    const unbudgeted = createScraperClient({ apiKey: "scrape_live_tools_test", baseUrl: "http://127.0.0.1:9/api/v1" });
    await expect(createScraperMcp({ client: unbudgeted })).rejects.toMatchObject({ name: "McpInputError", field: "client" });
    await expect(createScraperMcp({ client: {} as never })).rejects.toMatchObject({ field: "client" });
    await expect(createScraperMcp({ client: client(), sessionMaxCredits: -1 })).rejects.toMatchObject({ field: "sessionMaxCredits" });
  });
});

/** A session of `mcp` driven by raw JSON-RPC messages (initialized), keeping every message it sends back. */
async function rawSession(mcp: ScraperMcp) {
  const [peer, serverSide] = InMemoryTransport.createLinkedPair();
  const received: JSONRPCMessage[] = [];
  const waiting = new Map<unknown, (answer: Answer) => void>();
  peer.onmessage = (message) => {
    received.push(message);
    if ("id" in message) waiting.get(message.id)?.(message as Answer);
  };
  const session = mcp.session();
  await session.connect(serverSide);
  await peer.start();
  const request = (id: number, method: string, params: Record<string, unknown>) =>
    new Promise<Answer>((resolve) => {
      waiting.set(id, resolve);
      void peer.send({ jsonrpc: "2.0", id, method, params });
    });
  const notify = (method: string, params: Record<string, unknown>) => peer.send({ jsonrpc: "2.0", method, params });
  await request(0, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } });
  await notify("notifications/initialized", {});
  return { received, request, notify, close: () => session.close() };
}

describe("a session's answers to tool calls (the SDK's request path)", () => {
  it("an unknown tool or a call without a name is a JSON-RPC error; a tool whose own work throws at once is a tool error", async () => {
    const { request, close } = await rawSession(await createScraperMcp({ client: client() }));
    try {
      const unknown = await request(1, "tools/call", { name: "shortvideoDelete", arguments: {} });
      expect(unknown.error).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining("Unknown tool: shortvideoDelete") });
      const nameless = await request(2, "tools/call", { arguments: {} });
      expect(nameless.error).toMatchObject({ code: expect.any(Number), message: expect.stringContaining("name") });
      expect(nameless.result).toBeUndefined();
      // `quote` works without awaiting anything from the network: its refusal of the arguments is thrown at once. A
      // progress token changes nothing.
      const refused = await request(3, "tools/call", { name: "quote", arguments: { calls: "all" }, _meta: { progressToken: 3 } });
      expect(refused.error).toBeUndefined();
      expect(refused.result.isError).toBe(true);
      expect(refused.result.structuredContent.error).toMatchObject({ kind: "input", field: "calls" });
    } finally {
      await close();
    }
  });

  it("the agent's cancellation aborts the call in flight, which keeps its price, and nothing is answered for it; the next call is answered", async () => {
    const upstream = await startScriptedServer("/api/v1");
    let arrived!: () => void;
    let gone!: () => void;
    const held = new Promise<void>((resolve) => (arrived = resolve));
    const aborted = new Promise<void>((resolve) => (gone = resolve));
    upstream.script(
      (_request, response) => {
        response.on("close", gone);
        arrived();
      },
      (_request, response) => {
        response.writeHead(200, { "content-type": "application/json", "x-scraper-credits-charged": "1" });
        response.end(JSON.stringify({ data: { username: "creator", display_name: "Creator", follower_count: 1 }, request_id: "req_1", upstream_calls: 1, meta: { credits_charged: 1, credits_remaining: 5 } }));
      },
    );
    const scraper = createScraperClient({ apiKey: "scrape_live_tools_test", baseUrl: upstream.baseUrl, rateLimit: false, budget: { maxCredits: 10 } });
    const { received, request, notify, close } = await rawSession(await createScraperMcp({ client: scraper }));
    try {
      const call = { name: "shortvideoProfile", arguments: { username: "creator" } };
      void request(1, "tools/call", call);
      await held;
      await notify("notifications/cancelled", { requestId: 1, reason: "enough" });
      // The cancellation reached the client: it dropped the request it had sent.
      await aborted;
      const next = await request(2, "tools/call", call);
      expect(next.result.isError).toBeFalsy();
      expect(next.result.structuredContent.data).toMatchObject({ username: "creator" });
      // A call cancelled in flight may have been billed: it keeps its price once it has settled.
      await vi.waitFor(async () => expect(await scraper.budgetState()).toMatchObject({ spent: 2, reserved: 0 }));
      await new Promise((resolve) => setImmediate(resolve));
      expect(received.map((message) => ("id" in message ? message.id : undefined))).toEqual([0, 2]);
    } finally {
      await close();
      await upstream.close();
    }
  });
});
