import { createScraperClient } from "@content-scraper/client";
import { echoes, leakedForms, type ScriptedServer, startScriptedServer } from "@content-scraper/test-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScraperMcp } from "../src/index.js";
import { inMemoryClient, structured } from "./helpers.js";

// A server made in code and given no redactor of the caller's: the client's key leaves in no answer, whatever the
// service echoed into the data the client hands back as it came.

const apiKey = "scrape_live_in_process_h0stile_7c1e0f4a9b";
const keyPrefix = "scrape_live_";
let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer("/api/v1");
});
afterAll(() => server.close());

describe("a server made without a redactor", () => {
  it.each(echoes.map((echo) => [echo.name, echo] as const))("removes the client's key from an answer whose data echoes it %s", async (_name, echo) => {
    const pieces = echo.pieces(apiKey, keyPrefix);
    server.script((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "x-scraper-credits-charged": "1" });
      const data = { username: pieces[0], display_name: pieces.join(" "), follower_count: 1 };
      response.end(JSON.stringify({ data, request_id: `req_${pieces.at(-1)}`, upstream_calls: 1, meta: { credits_charged: 1, credits_remaining: 5 } }));
    });
    const mcp = await createScraperMcp({ client: createScraperClient({ apiKey, baseUrl: server.baseUrl, rateLimit: false, budget: { maxCredits: 5 } }) });
    const sdk = await inMemoryClient(mcp);
    try {
      const answer = await sdk.callTool({ name: "shortvideoProfile", arguments: { username: "creator" } });
      expect(structured(answer).data.follower_count).toBe(1);
      expect(leakedForms([JSON.stringify(answer)], apiKey, keyPrefix)).toEqual([]);
      expect(server.requests[0]?.headers["x-api-key"]).toBe(apiKey);
    } finally {
      await sdk.close();
    }
  });
});
