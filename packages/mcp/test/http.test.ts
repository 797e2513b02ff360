import { request } from "node:http";
import { type RunningMock, startMock } from "@content-scraper/mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { charged, httpClient, httpServer, secretKey, structured } from "./helpers.js";

let mock: RunningMock;
let server: Awaited<ReturnType<typeof httpServer>>;
beforeAll(async () => {
  mock = await startMock({ port: 0, timeScale: 0, requestsPerMinute: 1_000_000 });
  server = await httpServer(["--base-url", mock.baseUrls.scraper as string, "--max-credits", "40", "--session-max-credits", "26", "--requests-per-minute", "100000"]);
});
afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  expect(server.stderr()).not.toContain(secretKey);
  await mock?.close();
});

/** A raw POST to the endpoint with the given headers: the status it answers. */
function post(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    sent.on("error", reject);
    sent.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }));
  });
}

describe("Streamable HTTP on loopback, driven by the SDK's client", () => {
  it("gives each session its own allowance inside the server's: the sessions together never pass the server's", async () => {
    const a = await httpClient(server.url);
    const b = await httpClient(server.url);
    try {
      expect(a.transport.sessionId).toBeDefined();
      expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
      expect((await a.client.listTools()).tools.length).toBe(32);
      const first = structured(await a.client.callTool({ name: "shortvideoAudience", arguments: { username: "creator" } }));
      expect(first.allowance).toMatchObject({ left: 1, server: { left: 15 }, session: { left: 1 } });
      // Session A's own allowance refuses a second audience; session B's would take one, but the server's cannot.
      const againA = structured(await a.client.callTool({ name: "shortvideoAudience", arguments: { username: "creator" } }));
      expect(againA.error).toMatchObject({ kind: "allowance", left: 1 });
      const b1 = structured(await b.client.callTool({ name: "photoshareAudience", arguments: { username: "creator" } }));
      expect(b1.error).toMatchObject({ kind: "allowance", needed: 25, left: 15 });
      for (let i = 0; i < 15; i++) await b.client.callTool({ name: "microblogProfile", arguments: { username: "creator" } });
      const last = structured(await b.client.callTool({ name: "microblogProfile", arguments: { username: "creator" } }));
      expect(last.error).toMatchObject({ kind: "allowance", left: 0 });
      expect(await charged(mock)).toBe(40);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("a terminated session is gone; a new one gets the server's tools again", async () => {
    const a = await httpClient(server.url);
    const id = a.transport.sessionId as string;
    await a.close();
    expect(await post(server.url, { "mcp-session-id": id })).toBe(404);
    const b = await httpClient(server.url);
    expect((await b.client.listTools()).tools.length).toBe(32);
    await b.close();
  });

  it("refuses a request whose Host or Origin is not this machine (DNS rebinding), and any path but /mcp", async () => {
    expect(await post(server.url, { host: "evil.example:80" })).toBe(403);
    expect(await post(server.url, { origin: "http://evil.example" })).toBe(403);
    expect(await post(server.url.replace("/mcp", "/other"), {})).toBe(404);
    expect(await post(server.url, { origin: "http://localhost:3000" })).toBe(200);
  });
});
