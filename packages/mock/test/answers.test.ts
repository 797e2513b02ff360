// What partners saw wrong, now right: focused listings name the requested creator, comments come when asked for,
// profiles differ per creator, and catalogs grow as sandbox time passes (new posts at the front of page one).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMock } from "../src/index.js";
import { call, operationIds, rulesOf, start } from "./support.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await start({ seed: "answers" });
});
afterAll(() => mock.close());

describe.each(["shortvideoFavorites", "shortvideoReposts", "shortvideoPlaylists"] as const)("%s", (id) => {
  it.each([
    ["handle", { handle: "@nina.cooks" }, "nina.cooks"],
    ["unique_id", { unique_id: "omar_travels" }, "omar_travels"],
  ])("answers unique_id as the creator asked for by %s, on every page", async (_field, identifier, creator) => {
    let body: Record<string, unknown> = identifier;
    for (let page = 0; page < 5; page++) {
      const answer = await call(mock, rulesOf(id).path, body);
      expect(answer.body.data.unique_id).toBe(creator);
      for (const playlist of answer.body.data.playlists ?? []) expect(playlist.creator_username).toBe(creator);
      if (!answer.body.data.has_more) break;
      body = { ...identifier, cursor: answer.body.data.cursor };
    }
  });
});

describe("includeComments and includeTranscript", () => {
  const posts = operationIds.filter((id) => rulesOf(id).enrichment);

  it.each(posts)("%s fills topComments only where the description honours it, within its cap", async (id) => {
    const { enrichment, path } = rulesOf(id);
    const url = `https://${rulesOf(id).platform}.example/p/comments-${id}`;
    const asked = await call(mock, path, { url, include_comments: true, include_transcript: true });
    const [post] = asked.body.data.posts;
    if (enrichment?.comments && enrichment.commentCap !== undefined) {
      expect(post.topComments.length).toBeGreaterThan(0);
      expect(post.topComments.length).toBeLessThanOrEqual(enrichment.commentCap);
      expect(post.topComments.length).toBeLessThan(Math.max(2, post.comments));
    } else {
      expect(post.topComments).toBeNull();
    }
    if (!enrichment?.transcript) expect(post.transcript).toBeNull();
    const plain = await call(mock, path, { url });
    expect(plain.body.data.posts[0].topComments).toBeNull();
    expect(plain.body.data.posts[0].transcript).toBeNull();
  });
});

describe("profiles", () => {
  it("differ per creator, the same creator alike on every call", async () => {
    const profiles = await Promise.all(["maya.bakes", "omar_travels", "li-wei", "zed"].map((username) => call(mock, "/scrape/photoshare/profile", { username })));
    const data = profiles.map((answer) => answer.body.data);
    expect(data.map((profile) => profile.username)).toEqual(["maya.bakes", "omar_travels", "li-wei", "zed"]);
    expect(new Set(data.map((profile) => profile.display_name)).size).toBe(4);
    expect(new Set(data.map((profile) => profile.follower_count)).size).toBe(4);
    expect(data[0].display_name).toBe("Maya Bakes");
    expect((await call(mock, "/scrape/photoshare/profile", { username: "maya.bakes" })).body.data).toEqual(data[0]);
  });
});

describe("catalogs that grow", () => {
  it("put new posts at the front of page one as the sandbox clock passes, while a walk under way keeps its catalog", async () => {
    const own = await start({ seed: "growth" });
    try {
      const path = "/scrape/shortvideo/posts";
      const before = await call(own, path, { username: "poller" });
      const seen = new Set(before.body.data.posts.map((post: { id: string }) => post.id));
      expect(before.body.data.next_cursor).toBeDefined();
      // Three days: every creator posts at least once in 72 hours.
      await own.advance(3 * 24 * 3600);
      const after = await call(own, path, { username: "poller" });
      const fresh = after.body.data.posts.filter((post: { id: string }) => !seen.has(post.id));
      expect(fresh.length).toBeGreaterThan(0);
      // The new ones come first, newest first, and are newer than anything seen.
      expect(after.body.data.posts.slice(0, fresh.length)).toEqual(fresh);
      const newestSeen = Math.max(...before.body.data.posts.map((post: { uploadedAt: number }) => post.uploadedAt));
      for (const post of fresh) expect(post.uploadedAt).toBeGreaterThan(newestSeen);
      // The walk begun before continues where it was: page two of the catalog as it was then.
      const continued = await call(own, path, { username: "poller", cursor: before.body.data.next_cursor });
      for (const post of continued.body.data.posts) expect(seen.has(post.id)).toBe(false);
      expect(continued.body.data.posts.map((post: { id: string }) => post.id)).not.toContain(fresh[0]?.id);
      // An empty catalog stays empty.
      expect((await call(own, path, { username: "nopost" })).body.data.posts).toEqual([]);
    } finally {
      await own.close();
    }
  });
});
