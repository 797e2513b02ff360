import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { RunningMock } from "@content-scraper/mock";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

/** A key no answer, log line or error may ever show. */
export const secretKey = "scrape_live_mcp_test_SECRET_9f8e7d6c5b4a";

/** The bin over stdio, driven by the SDK's own client; what it wrote to stderr is kept. */
export async function stdioClient(args: string[], env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, ...args], env: { ...getDefaultEnvironment(), SCRAPER_API_KEY: secretKey, ...env }, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr, pid: () => transport.pid, close: () => client.close() };
}

/** The bin serving Streamable HTTP on loopback (port 0): its endpoint, stderr, and a stop that waits for its exit. */
export async function httpServer(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [bin, "--http", "--port", "0", ...args], { env: { ...process.env, SCRAPER_API_KEY: secretKey, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /Streamable HTTP at (\S+)/.exec(stderr);
      if (found?.[1]) resolve(found[1]);
    });
    child.once("exit", (code) => reject(new Error(`the server exited (${code}) before listening: ${stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    url,
    stderr: () => stderr,
    async stop() {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/** An SDK client over Streamable HTTP: one session of the server at `url`. */
export async function httpClient(url: string) {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport, close: async () => {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  } };
}

/** A tool's answer, read field by field. */
// biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field; the server built them from typed results.
export type Answer = Record<string, any>;

/** A tool's structured answer (every answer of this server has one). */
export const structured = (result: unknown) => (result as CallToolResult).structuredContent as Answer;

/** Credits the sandbox charged, by its own ledger (every answer since its last reset). */
export async function charged(mock: RunningMock): Promise<number> {
  return (await mock.log()).reduce((sum, entry) => sum + (entry.creditsCharged ?? 0), 0);
}

/** An SDK client on a session of `mcp`, over an in-memory transport (the server in this process). */
export async function inMemoryClient(mcp: import("../src/index.js").ScraperMcp) {
  const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.session().connect(serverSide);
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}
