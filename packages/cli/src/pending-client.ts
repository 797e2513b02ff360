// TEMPORARY until main's client (issue 10) is merged: a stand-in for walkPages, usage, newPosts' state and the new
// error classes, so the CLI can be exercised before. Deleted at the merge.
import * as clientModule from "@content-scraper/client";

const module = clientModule as unknown as Record<string, unknown>;
const proto = (module.ScraperClient as { prototype: Record<string, unknown> }).prototype;
export const ScraperAbortError = (module.ScraperAbortError ?? class ScraperAbortError extends Error {}) as new () => Error;
export const ScraperBudgetError = (module.ScraperBudgetError ?? class ScraperBudgetError extends Error {}) as new () => Error;
if (!("walkPages" in proto)) {
  proto.walkPages = function (this: clientModule.ScraperClient, platform: string, username: string, options: { cursor?: string; signal?: AbortSignal }) {
    const state = { cursor: options.cursor as string | undefined, pages: 0, posts: 0, creditsCharged: 0, stoppedBecause: undefined as unknown };
    const self = this;
    async function* pages() {
      for (;;) {
        const { data, meta } = await self.posts(platform as "shortvideo", username, { cursor: state.cursor, signal: options.signal } as never);
        const next = (data as { next_cursor?: unknown }).next_cursor;
        state.cursor = typeof next === "string" && next !== "" ? next : undefined;
        state.pages += 1;
        state.creditsCharged += meta.creditsCharged;
        yield { data, meta, posts: (data as { posts: unknown[] }).posts, nextCursor: state.cursor };
        if (state.cursor === undefined) {
          state.stoppedBecause = "end";
          return;
        }
      }
    }
    return Object.assign(pages(), { state });
  };
  const newPosts = proto.newPosts as (...args: unknown[]) => AsyncGenerator<unknown>;
  proto.newPosts = function (this: clientModule.ScraperClient, platform: string, username: string, options: { seen: Set<string> }) {
    const state = { creditsCharged: 0 };
    const self = this;
    async function* posts() {
      const { data, meta } = await self.posts(platform as "shortvideo", username);
      state.creditsCharged = meta.creditsCharged;
      for (const post of (data as { posts: Array<{ id: string; platform: string }> }).posts) {
        if (!options.seen.has(`${post.platform}:${post.id}`)) yield post;
      }
    }
    void newPosts;
    return Object.assign(posts(), { state });
  };
  Object.defineProperty(proto, "usage", { get: () => ({ pacingWaitMs: 0, creditsCharged: 0 }) });
}
