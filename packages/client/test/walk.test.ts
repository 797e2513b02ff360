import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScraperClient, postKey, ScraperAbortError, ScraperApiError, ScraperInputError, type WalkState } from "../src/index.js";
import { focusedClient } from "../src/focused.js";
import { type FaultServer, fail, type RecordedRequest, ok, startFaultServer } from "./fault-server.js";

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
    expect(walk.state).toEqual({ cursor: "c2", taken: [], pages: 2, items: 2, creditsCharged: 4, stoppedBecause: "maxCredits" });
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

describe("walk state and resuming", () => {
  const three = () => catalog([{ ids: ["1", "2"], next: "c1" }, { ids: ["3", "4"], next: "c2" }, { ids: ["5"] }]);

  it("exposes its state as it goes, and why it stopped", async () => {
    server.script(three());
    const walk = scraper().walkPosts("shortvideo", "creator");
    const seen: WalkState[] = [];
    for await (const _post of walk) seen.push({ ...walk.state });
    // The state says where to resume once every post yielded so far is stored: on the page of the next post, so a
    // resume re-fetches at most the page it was on and loses nothing.
    // The state says where to resume once every post yielded so far is stored: the page of the next post and the posts
    // already taken from it, so a resume re-fetches at most the page it was on, yields nothing twice and loses nothing.
    expect(seen.map((state) => [state.cursor, state.taken])).toEqual([
      [undefined, ["shortvideo:1"]],
      ["c1", []],
      ["c1", ["shortvideo:3"]],
      ["c2", []],
      [undefined, []],
    ]);
    // The listing's last post marks the state as ended the moment it is yielded.
    expect(seen.map((state) => state.stoppedBecause)).toEqual([undefined, undefined, undefined, undefined, "end"]);
    expect(walk.state).toEqual({ cursor: undefined, taken: [], pages: 3, items: 5, creditsCharged: 3, stoppedBecause: "end" });
  });

  it("resumes from a saved state: never page one again, at most the page it was on, no post twice", async () => {
    server.script(three());
    const first = scraper().walkPosts("shortvideo", "creator");
    const taken: string[] = [];
    let saved: WalkState | undefined;
    for await (const post of first) {
      taken.push(post.id);
      saved = JSON.parse(JSON.stringify(first.state)) as WalkState; // stored, then the state saved
      if (post.id === "3") break; // a crash in the middle of page two
    }
    expect(saved).toMatchObject({ cursor: "c1", taken: ["shortvideo:3"], pages: 2 });
    const resumed = scraper().walkPosts("shortvideo", "creator", { resume: saved });
    for await (const post of resumed) taken.push(post.id);
    expect(taken).toEqual(["1", "2", "3", "4", "5"]);
    expect(sentCursors()).toEqual([undefined, "c1", "c1", "c2"]);
    expect(resumed.state).toMatchObject({ pages: 2, creditsCharged: 2, stoppedBecause: "end" });
  });

  it.each([1, 2, 3, 4, 5])("resumed after a kill at post %i: at most one page again, no post twice, none lost", async (killAt) => {
    server.script(three());
    const first = scraper().walkPosts("shortvideo", "creator");
    const stored: string[] = [];
    let saved: unknown;
    for await (const post of first) {
      stored.push(post.id);
      saved = JSON.parse(JSON.stringify(first.state));
      if (stored.length === killAt) break;
    }
    const resumed = scraper().walkPosts("shortvideo", "creator", { resume: saved as WalkState });
    for await (const post of resumed) stored.push(post.id);
    expect(stored).toEqual(["1", "2", "3", "4", "5"]);
    // Pages fetched in all: the three, plus the one the kill landed in the middle of (posts 1 and 3); none after a
    // page's last post, nor after the listing's.
    expect(server.requests).toHaveLength([1, 3].includes(killAt) ? 4 : 3);
    expect(resumed.state.stoppedBecause).toBe("end");
  });

  it("stops at the next item when its signal aborts, also on the listing's last page", async () => {
    server.script(catalog([{ ids: ["1", "2", "3"] }]));
    const controller = new AbortController();
    const walk = scraper().walkPosts("shortvideo", "creator", { signal: controller.signal });
    const taken: string[] = [];
    await expect(
      (async () => {
        for await (const post of walk) {
          taken.push(post.id);
          controller.abort();
        }
      })(),
    ).rejects.toBeInstanceOf(ScraperAbortError);
    expect(taken).toEqual(["1"]);
    expect(walk.state).toMatchObject({ cursor: undefined, taken: ["shortvideo:1"], stoppedBecause: "aborted" });
  });

  it("walkPages yields pages with meta and nextCursor; its state points past each page yielded", async () => {
    server.script(three());
    const walk = scraper().walkPages("shortvideo", "creator");
    const pages = [];
    for await (const page of walk) {
      pages.push({ ids: page.items.map((post) => post.id), cursor: page.cursor, next: page.nextCursor, number: page.pageNumber, resumeAt: walk.state.cursor });
      expect(page.meta.requestId).toBe("req_ok");
      expect(page.response).toMatchObject({ status: 200, attempts: 1 });
    }
    expect(pages).toEqual([
      { ids: ["1", "2"], cursor: undefined, next: "c1", number: 1, resumeAt: "c1" },
      { ids: ["3", "4"], cursor: "c1", next: "c2", number: 2, resumeAt: "c2" },
      { ids: ["5"], cursor: "c2", next: undefined, number: 3, resumeAt: undefined },
    ]);
    expect(walk.state).toEqual({ cursor: undefined, taken: [], pages: 3, items: 5, creditsCharged: 3, stoppedBecause: "end" });
  });

  it("stops on maxPages and says so, with the cursor to go on from", async () => {
    server.script(three());
    const walk = scraper().walkPages("shortvideo", "creator", { maxPages: 1 });
    expect(await collect(walk)).toHaveLength(1);
    expect(walk.state).toMatchObject({ cursor: "c1", pages: 1, stoppedBecause: "maxPages" });
  });

  it("records the error it stopped on (a 402), resumable after a top-up", async () => {
    server.script(catalog([{ ids: ["1"], next: "c1" }]), fail(402, "INSUFFICIENT_SCRAPER_CREDITS"));
    const walk = scraper().walkPosts("shortvideo", "creator");
    const ids: string[] = [];
    await expect(
      (async () => {
        for await (const post of walk) ids.push(post.id);
      })(),
    ).rejects.toBeInstanceOf(ScraperApiError);
    expect(ids).toEqual(["1"]);
    expect(walk.state.cursor).toBe("c1");
    expect(walk.state.stoppedBecause).toBeInstanceOf(ScraperApiError);
    expect((walk.state.stoppedBecause as ScraperApiError).code).toBe("INSUFFICIENT_SCRAPER_CREDITS");
  });

  it("an abort stops the walk as aborted", async () => {
    server.script(three());
    const controller = new AbortController();
    const walk = scraper().walkPosts("shortvideo", "creator", { signal: controller.signal });
    await expect(
      (async () => {
        for await (const post of walk) if (post.id === "2") controller.abort();
      })(),
    ).rejects.toMatchObject({ name: "ScraperAbortError", inFlight: false });
    expect(walk.state).toMatchObject({ cursor: "c1", pages: 1, stoppedBecause: "aborted" });
  });

  it.each([
    ["maxCredits", { maxCredits: 0.5 }],
    ["maxCredits", { maxCredits: -1 }],
    ["maxPages", { maxPages: 1.5 }],
    ["maxPages", { maxPages: Number.NaN }],
    ["cursor", { cursor: "" }],
    ["maxRetries", { maxRetries: -1 }],
  ] as const)("refuses an unusable %s with a ScraperInputError naming it, before sending", (field, options) => {
    server.script(three());
    let error: unknown;
    try {
      scraper().walkPosts("shortvideo", "creator", options as never);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ScraperInputError);
    expect((error as ScraperInputError).field).toBe(field);
    expect(server.requests).toHaveLength(0);
  });
});

describe("focused cursor listings", () => {
  const video = (id: string) => ({ aweme_id: id });
  /** favorites/reposts pages keyed by `cursor`, ending with has_more false. */
  function videos(pages: Array<{ ids: string[]; cursor: string | null; more: boolean }>) {
    return (request: RecordedRequest, response: ServerResponse) => {
      const sentCursor = (JSON.parse(request.body) as { cursor?: string }).cursor;
      const index = sentCursor === undefined ? 0 : pages.findIndex((_page, at) => at > 0 && pages[at - 1]?.cursor === sentCursor);
      const page = pages[index] ?? { ids: [], cursor: null, more: false };
      ok({ unique_id: "creator", user_id: null, cursor: page.cursor, has_more: page.more, aweme_list: page.ids.map(video) })(request, response);
    };
  }

  it("walkFavorites pages by cursor and has_more, sending the body's identifier each time", async () => {
    server.script(videos([{ ids: ["a", "b"], cursor: "30", more: true }, { ids: ["c"], cursor: "60", more: false }]));
    const walk = focusedClient(scraper(), "shortvideo").walkFavorites({ handle: "creator" });
    expect((await collect(walk)).map((item) => item.aweme_id)).toEqual(["a", "b", "c"]);
    expect(server.requests.map((request) => JSON.parse(request.body))).toEqual([{ handle: "creator" }, { handle: "creator", cursor: "30" }]);
    expect(walk.state).toMatchObject({ pages: 2, items: 3, creditsCharged: 2, stoppedBecause: "end" });
  });

  it("walkPlaylistsPages yields pages and resumes from a cursor", async () => {
    server.script((request, response) => {
      const { cursor } = JSON.parse(request.body) as { cursor?: string };
      ok({ unique_id: "creator", user_id: null, cursor: null, has_more: false, playlists: [{ playlist_id: cursor ?? "first" }] })(request, response);
    });
    const walk = focusedClient(scraper(), "shortvideo").walkPlaylistsPages({ unique_id: "creator" }, { cursor: "20" });
    const pages = await collect(walk);
    expect(pages.map((page) => page.items.map((item) => item.playlist_id))).toEqual([["20"]]);
    expect(walk.state.stoppedBecause).toBe("end");
  });
});

describe("polling for new posts: what it cost, and what lies behind page one", () => {
  it("reports the poll's charge, and the cursor of page two to walk on from", async () => {
    server.script(catalog([{ ids: ["2", "1"], next: "c1" }], 1));
    const poll = scraper().newPosts("shortvideo", "creator", { seen: new Set(["1"]) });
    expect((await collect(poll)).map((post) => post.id)).toEqual(["2"]);
    expect(poll.state).toEqual({ cursor: "c1", taken: [], pages: 1, items: 1, creditsCharged: 1, stoppedBecause: "maxPages" });
    const further = await collect(scraper().walkPosts("shortvideo", "creator", { cursor: poll.state.cursor }));
    expect(sentCursors()).toEqual([undefined, "c1"]);
    expect(further).toEqual([]);
  });

  it("ends when page one is the whole catalog, and yields a post page one repeats once", async () => {
    server.script(catalog([{ ids: ["3", "3", "2"] }], 1));
    const poll = scraper().newPosts("shortvideo", "creator", { seen: new Set() });
    expect((await collect(poll)).map((post) => post.id)).toEqual(["3", "2"]);
    expect(poll.state).toEqual({ cursor: undefined, taken: [], pages: 1, items: 2, creditsCharged: 1, stoppedBecause: "end" });
  });
});
