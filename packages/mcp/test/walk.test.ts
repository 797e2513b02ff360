import { createScraperClient, postKey } from "@content-scraper/client";
import { type RunningMock, startMock } from "@content-scraper/mock";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createScraperMcp } from "../src/index.js";
import { charged, inMemoryClient, structured } from "./helpers.js";

const apiKey = "scrape_live_mcp_walk";
let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, timeScale: 0, requestsPerMinute: 1_000_000 });
});
afterAll(() => mock?.close());
beforeEach(() => mock.reset());

const scraper = (maxCredits: number) =>
  createScraperClient({ apiKey, baseUrl: mock.baseUrls.scraper, rateLimit: false, budget: { maxCredits } });
const session = async (maxCredits = 1000) => inMemoryClient(await createScraperMcp({ client: scraper(maxCredits) }));
const walk = async (client: Client, args: Record<string, unknown>) => client.callTool({ name: "walk", arguments: args });

/** Every post of a creator's catalog, as the client's own walk yields it (no MCP in between). */
async function directly(username: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const post of scraper(1000).walkPosts("shortvideo", username)) keys.push(postKey(post));
  return keys;
}

describe("the walk tool", () => {
  it("reads a whole catalog in small answers, each post once, none lost: exactly the client's own walk", async () => {
    const expected = await directly("maya.bakes");
    expect(expected.length).toBeGreaterThan(30);
    await mock.reset();
    const client = await session();
    const keys: string[] = [];
    let answer = structured(await walk(client, { operation: "shortvideoPosts", arguments: { username: "maya.bakes" }, maxItems: 7, fields: ["id", "platform"] }));
    for (let calls = 1; ; calls++) {
      keys.push(...answer.items.map((item: { id: string; platform: string }) => postKey(item)));
      expect(answer.items.every((item: object) => Object.keys(item).sort().join() === "id,platform")).toBe(true);
      if (answer.done) break;
      expect(calls).toBeLessThan(100);
      answer = structured(await walk(client, { resume: answer.resume, maxItems: 7, fields: ["id", "platform"] }));
    }
    expect(answer.resume).toBeUndefined();
    expect(keys).toEqual(expected);
    expect(new Set(keys).size).toBe(keys.length);
    // Stopping inside a page fetches it again on resume: the ledger says what that cost, and the allowance counted it.
    const pages = (await mock.log()).length;
    expect(await charged(mock)).toBe(pages);
    expect(answer.allowance.server.spent).toBe(pages);
  });

  it("a page at a time by default; maxPages fetches more; the answer carries the last page's meta and what the call cost", async () => {
    const client = await session();
    const first = structured(await walk(client, { operation: "microblogPosts", arguments: { username: "maya.bakes" } }));
    expect(first.done).toBe(false);
    expect(first.walk).toEqual({ pages: 1, items: first.items.length, creditsCharged: 1 });
    expect(first.meta).toMatchObject({ creditsCharged: 1, requestId: expect.stringMatching(/^req_/) });
    const more = structured(await walk(client, { resume: first.resume, maxPages: 3 }));
    expect(more.walk.pages).toBe(3);
    expect(await charged(mock)).toBe(4);
  });

  it("walks a focused listing and a single-page one", async () => {
    const client = await session();
    const favorites = structured(await walk(client, { operation: "shortvideoFavorites", arguments: { handle: "maya.bakes" }, fields: ["aweme_id", "statistics.play_count"] }));
    expect(favorites.items[0]).toEqual({ aweme_id: expect.any(String), statistics: { play_count: expect.any(Number) } });
    const single = structured(await walk(client, { operation: "professionalPosts", arguments: { username: "creator" }, maxPages: 5 }));
    expect(single).toMatchObject({ done: true, walk: { pages: 1 } });
    expect(single.resume).toBeUndefined();
  });

  it("stopped by the allowance, it keeps what it read and where to resume; another server with room goes on exactly there", async () => {
    const expected = await directly("maya.bakes");
    await mock.reset();
    const tight = await session(2);
    const stopped = await walk(tight, { operation: "shortvideoPosts", arguments: { username: "maya.bakes" }, maxPages: 10, fields: ["id", "platform"] });
    const answer = structured(stopped);
    expect(stopped.isError).toBeFalsy();
    expect(answer.walk.pages).toBe(2);
    expect(answer.error).toMatchObject({ kind: "allowance", needed: 1, left: 0 });
    const nothing = await walk(tight, { resume: answer.resume });
    expect(nothing.isError).toBe(true);
    expect(structured(nothing).resume).toBeDefined();
    const roomy = await session(100);
    const rest = structured(await walk(roomy, { resume: structured(nothing).resume, maxPages: 20, fields: ["id", "platform"] }));
    expect([...answer.items, ...rest.items].map((item: { id: string; platform: string }) => postKey(item))).toEqual(expected);
  });

  it.each([
    [{ resume: "not-a-token" }, "resume"],
    [{ resume: Buffer.from(JSON.stringify({ v: 1, operation: "shortvideoPosts", arguments: {}, taken: [1] })).toString("base64url") }, "resume"],
    [{ resume: Buffer.from(JSON.stringify({ v: 1, operation: "shortvideoProfile", arguments: { username: "c" }, taken: [] })).toString("base64url") }, "resume"],
    [{ operation: "shortvideoProfile", arguments: { username: "c" } }, "operation"],
    [{ operation: "shortvideoPosts", arguments: { username: "c", cursor: "abc" } }, "arguments.cursor"],
    [{ operation: "shortvideoPosts", arguments: { username: "not a handle" } }, "username"],
    [{ operation: "shortvideoPosts", arguments: { username: "c" }, maxPages: 21 }, "maxPages"],
    [{ operation: "shortvideoPosts", arguments: { username: "c" }, fields: [] }, "fields"],
  ])("refuses %j, naming %s, and sends nothing", async (args, field) => {
    const answer = await walk(await session(), args);
    expect(answer.isError).toBe(true);
    expect(structured(answer).error).toMatchObject({ kind: "input", field });
    expect(await mock.log()).toEqual([]);
  });

  it("a resume token carries its walk: passing another operation or arguments beside it is refused", async () => {
    const client = await session();
    const { resume } = structured(await walk(client, { operation: "microblogPosts", arguments: { username: "maya.bakes" } }));
    const mixed = structured(await walk(client, { resume, operation: "microblogPosts", arguments: { username: "other" } }));
    expect(mixed.error).toMatchObject({ kind: "input", field: "resume" });
  });
});

describe("the quote tool", () => {
  it("prices a plan from the description's prices without sending, against what is left", async () => {
    const client = await session(60);
    await client.callTool({ name: "shortvideoProfile", arguments: { username: "creator" } });
    const answer = await client.callTool({ name: "quote", arguments: { calls: [{ tool: "shortvideoPosts", times: 10 }, { tool: "photoshareAudience", times: 2 }] } });
    expect(structured(answer)).toMatchObject({
      total: 60,
      fits: false,
      calls: [
        { tool: "shortvideoPosts", times: 10, price: 1, credits: 10, accountRate: true },
        { tool: "photoshareAudience", times: 2, price: 25, credits: 50, accountRate: false },
      ],
      atStandardRate: true,
      allowance: { left: 59 },
    });
    expect(await charged(mock)).toBe(1);
    const wrong = structured(await client.callTool({ name: "quote", arguments: { calls: [{ tool: "walk" }] } }));
    expect(wrong.error).toMatchObject({ kind: "input", field: "calls[0].tool" });
  });
});
