import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScraperClient, postKey } from "../src/index.js";
import { type FaultServer, type RecordedRequest, ok, startFaultServer } from "./fault-server.js";

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

const scraper = () => createScraperClient({ apiKey: "scrape_live_walk", baseUrl: server.baseUrl, rateLimit: false });
const post = (id: string, platform = "shortvideo") => ({ id, platform, videoUrl: "https://cdn.example/v.mp4" });

/** A catalog served page by page, keyed by the cursor the client sends back. */
function catalog(pages: Array<{ ids: string[]; next?: string }>, charged = 1) {
  const byCursor = new Map(pages.map((page, index) => [index === 0 ? "" : (pages[index - 1]?.next ?? ""), page]));
  return (request: RecordedRequest, response: ServerResponse) => {
    const { cursor = "" } = JSON.parse(request.body) as { cursor?: string };
    const page = byCursor.get(cursor) ?? { ids: [] };
    const data = { posts: page.ids.map((id) => post(id)), profile_pictures: {}, ...(page.next === undefined ? {} : { next_cursor: page.next }) };
    ok(data, { charged })(request, response);
  };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

const sentCursors = () => server.requests.map((r) => (JSON.parse(r.body) as { cursor?: string }).cursor);

describe("catalog walks", () => {
  it("follows next_cursor verbatim through short pages and stops when it is absent", async () => {
    server.script(
      catalog([
        { ids: ["1", "2", "3"], next: "opaque==A/1" },
        { ids: ["4"], next: "opaque==B/2" }, // a short page mid-walk is not the end
        { ids: ["5", "6"] },
      ]),
    );
    const posts = await collect(scraper().walkPosts("shortvideo", "creator"));
    expect(posts.map((p) => p.id)).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(sentCursors()).toEqual([undefined, "opaque==A/1", "opaque==B/2"]);
  });

  it("stops on an empty next_cursor", async () => {
    server.script(ok({ posts: [post("1")], profile_pictures: {}, next_cursor: "" }), ok({ posts: [post("2")], profile_pictures: {} }));
    expect((await collect(scraper().walkPosts("shortvideo", "creator"))).map((p) => p.id)).toEqual(["1"]);
    expect(server.requests).toHaveLength(1);
  });

  it("de-duplicates on id + platform across pages", async () => {
    server.script(catalog([{ ids: ["1", "2"], next: "c1" }, { ids: ["2", "3", "3"] }]));
    expect((await collect(scraper().walkPosts("shortvideo", "creator"))).map((p) => p.id)).toEqual(["1", "2", "3"]);
    expect(postKey(post("2"))).toBe("shortvideo:2");
  });

  it("stops before maxPages would be exceeded", async () => {
    server.script(catalog([{ ids: ["1"], next: "c1" }, { ids: ["2"], next: "c2" }, { ids: ["3"], next: "c3" }]));
    expect((await collect(scraper().walkPosts("shortvideo", "creator", { maxPages: 2 }))).map((p) => p.id)).toEqual(["1", "2"]);
    expect(server.requests).toHaveLength(2);
  });

  it("stops before maxCredits would be exceeded, using the charge of the last page", async () => {
    server.script(catalog([{ ids: ["1"], next: "c1" }, { ids: ["2"], next: "c2" }, { ids: ["3"], next: "c3" }], 2));
    const walk = scraper().walkPosts("shortvideo", "creator", { maxCredits: 5 });
    expect((await collect(walk)).map((p) => p.id)).toEqual(["1", "2"]);
    expect(walk.state).toEqual({ cursor: "c2", pages: 2, items: 2, creditsCharged: 4, stoppedBecause: "maxCredits" });
  });

  it("spends nothing when even the first page would exceed maxCredits", async () => {
    server.script(catalog([{ ids: ["1"] }]));
    expect(await collect(scraper().walkPosts("shortvideo", "creator", { maxCredits: 0 }))).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it.each(["ephemeral", "professional"] as const)("treats %s as a single page", async (platform) => {
    server.script(catalog([{ ids: ["1", "2"], next: "should-not-be-followed" }, { ids: ["3"] }]));
    const posts = await collect(scraper().walkPosts(platform, "creator"));
    expect(posts).toHaveLength(2);
    expect(server.requests).toHaveLength(1);
  });

  it("stops when the service hands back a cursor it already gave (a loop would bill forever)", async () => {
    server.script(catalog([{ ids: ["1"], next: "same" }, { ids: ["2"], next: "same" }]));
    expect((await collect(scraper().walkPosts("shortvideo", "creator"))).map((p) => p.id)).toEqual(["1", "2"]);
    expect(server.requests).toHaveLength(2);
  });

  it("sends contentType on videosite walks", async () => {
    server.script(catalog([{ ids: ["1"] }]));
    await collect(scraper().walkPosts("videosite", "creator", { contentType: "video" }));
    expect(JSON.parse(server.requests[0]?.body ?? "{}")).toEqual({ username: "creator", contentType: "video" });
  });
});

describe("polling for new posts", () => {
  it("yields page one's posts that are not in seen", async () => {
    server.script(catalog([{ ids: ["9", "8", "7", "6"], next: "c1" }]));
    const fresh = await collect(scraper().newPosts("shortvideo", "creator", { seen: new Set(["7", "shortvideo:6"]) }));
    expect(fresh.map((p) => p.id)).toEqual(["9", "8"]);
    expect(server.requests).toHaveLength(1);
  });
});
