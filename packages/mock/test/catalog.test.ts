// Catalogs that end: a deterministic catalog per creator, walked page by page behind opaque cursors.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMock } from "../src/index.js";
import { call, operationIds, operations, rulesOf, start } from "./support.js";

type Page = { posts: Array<{ id: string; platform: string; uploadedAt: number }>; profile_pictures: Record<string, string>; next_cursor?: string };

async function walk(mock: RunningMock, path: string, username: string): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | undefined;
  do {
    const answer = await call(mock, path, { username, cursor });
    expect(answer.status).toBe(200);
    pages.push(answer.body.data);
    cursor = answer.body.data.next_cursor;
  } while (cursor && pages.length < 50);
  return pages;
}

const listings = operationIds.filter((id) => rulesOf(id).paging && !rulesOf(id).paging?.hasMore);

let mock: RunningMock;
beforeAll(async () => {
  mock = await start({ seed: "catalogs" });
});
afterAll(() => mock.close());

describe.each(listings)("%s", (id) => {
  const rules = rulesOf(id);
  const paging = rules.paging as Required<NonNullable<typeof rules.paging>>;

  it("walks every creator's catalog to its end, each post once", async () => {
    const ids = new Set<string>();
    for (const username of ["alice", "bob", "carol.d", "@Dave_99"]) {
      const pages = await walk(mock, rules.path, username);
      expect(pages.length).toBeLessThan(50);
      const posts = pages.flatMap((page) => page.posts);
      expect(posts.length).toBeGreaterThan(0);
      for (const post of posts) {
        expect(post.platform).toBe(rules.platform);
        expect(ids.has(post.id), `${post.id} repeats`).toBe(false);
        ids.add(post.id);
      }
      // Newest first, and profile_pictures names the requested handle.
      expect(posts.map((post) => post.uploadedAt)).toEqual([...posts.map((post) => post.uploadedAt)].sort((a, b) => b - a));
      expect(Object.keys(pages[0]?.profile_pictures ?? {})).toEqual([username.replace(/^@/, "")]);
      if (paging.mode === "single-page") {
        expect(pages).toHaveLength(1);
        expect(pages[0]).not.toHaveProperty("next_cursor");
        expect(posts.length).toBeGreaterThanOrEqual(paging.pageSize.min ?? 1);
      }
      for (const page of pages.slice(1, -1)) expect(page.posts.length).toBeLessThanOrEqual(paging.pageSize.max);
      if (!paging.pageSize.exact) for (const page of pages) expect(page.posts.length).toBeLessThanOrEqual(paging.pageSize.max);
    }
  });

  it("is the same catalog on every walk", async () => {
    const first = await walk(mock, rules.path, "erin");
    expect(await walk(mock, rules.path, "erin")).toEqual(first);
  });

  it("answers nopost with one empty page, billed", async () => {
    const answer = await call(mock, rules.path, { username: "nopost" });
    expect(answer.status).toBe(200);
    expect(answer.body.data.posts).toEqual([]);
    expect(answer.body.data).not.toHaveProperty("next_cursor");
    expect(answer.body.meta.credits_charged).toBe(rules.credits?.standard);
  });

  it("serves page one for a stale or unrecognised cursor, billed", async () => {
    const [first] = await walk(mock, rules.path, "frank");
    for (const cursor of ["not-a-cursor", "eyJvZmZzZXQiOjMwfQ"]) {
      const answer = await call(mock, rules.path, { username: "frank", cursor });
      expect(answer.status).toBe(200);
      expect(answer.body.data.posts).toEqual(first?.posts);
    }
  });
});

it("overshoots page one and falls short on page two where the page size is nominal", async () => {
  const sizes: number[][] = [];
  for (const username of ["g1", "g2", "g3", "g4", "g5", "g6"]) sizes.push((await walk(mock, operations.shortvideoPosts.path, username)).map((page) => page.posts.length));
  const nominal = operations.shortvideoPosts.paging.pageSize.max;
  expect(sizes.some((pages) => pages.length > 1 && (pages[0] as number) > nominal && (pages[1] as number) < nominal)).toBe(true);
});

it("gives another seed another catalog", async () => {
  const other = await start({ seed: "other" });
  try {
    const ours = await walk(mock, operations.photosharePosts.path, "alice");
    const theirs = await walk(other, operations.photosharePosts.path, "alice");
    expect(theirs.flatMap((page) => page.posts.map((post) => post.id))).not.toEqual(ours.flatMap((page) => page.posts.map((post) => post.id)));
  } finally {
    await other.close();
  }
});

it("walks a focused listing to has_more: false", async () => {
  for (const id of operationIds.filter((candidate) => rulesOf(candidate).paging?.hasMore)) {
    const rules = rulesOf(id);
    let body: Record<string, unknown> = { handle: "alice" };
    let pages = 0;
    for (;;) {
      const answer = await call(mock, rules.path, body);
      pages++;
      if (!answer.body.data.has_more) {
        expect(answer.body.data.cursor).toBeNull();
        break;
      }
      body = { handle: "alice", cursor: answer.body.data.cursor };
    }
    expect(pages).toBeLessThanOrEqual(3);
  }
});
