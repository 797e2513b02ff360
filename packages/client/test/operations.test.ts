import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScraperClient, ScraperApiError, ScraperBudgetError, type WalkState } from "../src/index.js";
import { callOperation, walkOperation, walkOperationPages } from "../src/operations.js";
import { type FaultServer, fail, ok, type RecordedRequest, startFaultServer } from "./fault-server.js";

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

const scraper = (options: Parameters<typeof createScraperClient>[0] = {}) =>
  createScraperClient({ apiKey: "scrape_live_operations", baseUrl: server.baseUrl, rateLimit: false, retry: { baseDelayMs: 5, maxDelayMs: 20 }, ...options });
const bodies = () => server.requests.map((request) => (request.body ? JSON.parse(request.body) : undefined));

/** A posts catalog of two pages, whose second repeats a post of the first. */
function posts(request: RecordedRequest, response: ServerResponse) {
  const { cursor } = JSON.parse(request.body) as { cursor?: string };
  const ids = cursor === undefined ? ["1", "2"] : ["2", "3"];
  const data = { posts: ids.map((id) => ({ id, platform: "shortvideo" })), profile_pictures: {}, ...(cursor === undefined ? { next_cursor: "c1" } : {}) };
  ok(data)(request, response);
}

describe("any operation by its operationId", () => {
  it("sends the body as given to the operation's path, and answers { data, meta } like a method", async () => {
    server.script(ok({ username: "creator", display_name: "C", follower_count: 3 }, { charged: 1, remaining: 41 }));
    const result = await callOperation(scraper(), "photoshareProfile", { username: "creator" });
    expect(server.requests[0]?.path).toBe("/api/v1/scrape/photoshare/profile");
    expect(bodies()).toEqual([{ username: "creator" }]);
    expect(result.data.follower_count).toBe(3);
    expect(result.meta).toMatchObject({ creditsCharged: 1, creditsRemaining: 41, requestId: "req_ok" });
  });

  it("a focused operation, and one whose body is optional", async () => {
    server.script(ok({ total: 0, regions: [] }));
    await callOperation(scraper(), "shortvideoRegions");
    expect(server.requests[0]).toMatchObject({ path: "/api/v1/scrape/shortvideo/regions", body: "" });
  });

  it("throws the client's typed errors, and applies its budget", async () => {
    server.script(fail(404, "PROFILE_NOT_FOUND", {}, { "x-scraper-credits-charged": "25" }));
    const client = scraper({ budget: { maxCredits: 30 } });
    await expect(callOperation(client, "shortvideoAudience", { username: "gone" })).rejects.toMatchObject({ name: "ScraperApiError", billed: true, creditsCharged: 25 });
    await expect(callOperation(client, "photoshareAudience", { username: "x" })).rejects.toBeInstanceOf(ScraperBudgetError);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ["nope", { username: "c" }, "operationId"],
    ["shortvideoProfile", undefined, "body"],
  ])("callOperation(%j, %j) is a ScraperInputError naming %s, and sends nothing", (operationId, body, field) => {
    const before = server.requests.length;
    expect(() => callOperation(scraper(), operationId as never, body as never)).toThrow(expect.objectContaining({ name: "ScraperInputError", field }));
    expect(() => callOperation({} as never, "shortvideoProfile", { username: "c" })).toThrow(expect.objectContaining({ field: "client" }));
    expect(server.requests).toHaveLength(before);
  });
});

describe("walking any listing by its operationId", () => {
  it("a normalized posts listing: the cursor field of the description, each post once", async () => {
    server.script(posts);
    const walk = walkOperation(scraper(), "shortvideoPosts", { username: "creator" });
    const ids: string[] = [];
    for await (const post of walk) ids.push(post.id);
    expect(ids).toEqual(["1", "2", "3"]);
    expect(bodies()).toEqual([{ username: "creator" }, { username: "creator", cursor: "c1" }]);
    expect(walk.state).toMatchObject({ pages: 2, items: 3, stoppedBecause: "end" });
  });

  it("tells onPage each page's result as it arrives", async () => {
    server.script(posts);
    const metas: number[] = [];
    const walk = walkOperation(scraper(), "shortvideoPosts", { username: "creator" }, { onPage: (page) => metas.push(page.meta.creditsCharged) });
    for await (const post of walk) if (post.id === "2") expect(metas).toEqual([1]);
    expect(metas).toEqual([1, 1]);
    expect(() => walkOperation(scraper(), "shortvideoPosts", { username: "c" }, { onPage: 1 as never })).toThrow(expect.objectContaining({ field: "onPage" }));
  });

  it("resumes exactly from a saved state, keyed on postKey", async () => {
    server.script(posts);
    const first = walkOperation(scraper(), "shortvideoPosts", { username: "creator" });
    let saved: WalkState | undefined;
    for await (const post of first) {
      saved = JSON.parse(JSON.stringify(first.state)) as WalkState;
      if (post.id === "1") break;
    }
    expect(saved).toEqual({ taken: ["shortvideo:1"], pages: 1, items: 1, creditsCharged: 1 });
    const ids: string[] = [];
    for await (const post of walkOperation(scraper(), "shortvideoPosts", { username: "creator" }, { resume: saved })) ids.push(post.id);
    // Post 2 comes once: the resumed walk skips what page one gave before, and its page two repeats post 2 (de-duplicated).
    expect(ids).toEqual(["2", "3"]);
  });

  it("a focused listing, by the description's cursor and has_more; and a single-page listing is one page", async () => {
    server.script((request, response) => {
      const { cursor } = JSON.parse(request.body) as { cursor?: string };
      ok({ unique_id: "c", user_id: null, cursor: cursor ? null : "30", has_more: !cursor, aweme_list: [{ aweme_id: cursor ?? "first" }] })(request, response);
    });
    const pages = walkOperationPages(scraper(), "shortvideoReposts", { handle: "c" });
    const seen: string[][] = [];
    for await (const page of pages) seen.push(page.items.map((item) => item.aweme_id));
    expect(seen).toEqual([["first"], ["30"]]);
    server.script(ok({ posts: [{ id: "e1", platform: "ephemeral" }], profile_pictures: {} }));
    const single = walkOperation(scraper(), "ephemeralPosts", { username: "c" });
    for await (const _post of single);
    expect(single.state).toMatchObject({ pages: 1, stoppedBecause: "end" });
  });

  it("refuses an operation with no pages to walk, naming operationId", () => {
    expect(() => walkOperation(scraper(), "shortvideoProfile" as never, { username: "c" } as never)).toThrow(expect.objectContaining({ field: "operationId" }));
    expect(() => walkOperation(scraper(), "shortvideoPosts", null as never)).toThrow(expect.objectContaining({ field: "body" }));
  });

  it("fails as the client does: a refunded error is retried, a 402 ends the walk with its typed error", async () => {
    server.script(fail(502, "UPSTREAM_ERROR"), fail(402, "INSUFFICIENT_SCRAPER_CREDITS"));
    const walk = walkOperation(scraper(), "microblogPosts", { username: "c" });
    await expect(walk.next()).rejects.toBeInstanceOf(ScraperApiError);
    expect(server.requests).toHaveLength(2);
    expect(walk.state.stoppedBecause).toMatchObject({ code: "INSUFFICIENT_SCRAPER_CREDITS" });
  });
});
