// The magic inputs answer what the README's table (the `answer` of each) says they answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationBehaviour } from "../src/generated/scraper.operations.js";
import { scraperOperations as operations } from "../src/scraper/rules.js";
import { magicInputs, type RunningMock } from "../src/index.js";
import { call, charged, freshKey, start } from "./support.js";

let mock: RunningMock;
beforeAll(async () => {
  // Durations at 1/100: `slow` on shortvideo then takes a few dozen milliseconds.
  mock = await start({ timeScale: 0.01 });
});
afterAll(() => mock.close());

describe.each(magicInputs.filter((magic) => magic.field === undefined))("$input", ({ input, answer: documented }) => {
  const status = Number(/^(\d{3})/.exec(documented)?.[1]);

  it.each([
    ["a profile username", "/scrape/shortvideo/profile", { username: input }],
    ["a profile username with @ and capitals", "/scrape/videosite/profile", { username: `@${input.toUpperCase()}` }],
    ["a post URL's last segment", "/scrape/microblog/post", { url: `https://microblog.example/Creator/status/${input}?s=20` }],
    ["a focused operation's handle", "/scrape/shortvideo/favorites", { handle: input }],
  ])("as %s answers what the README says", async (_name, path, body) => {
    const answer = await call(mock, path, body);
    expect(answer.status).toBe(status);
    if (documented.includes("billed")) expect(charged(answer)).toBeGreaterThan(0);
    if (documented.includes("refunded") && answer.headers.has("x-scraper-credits-charged")) expect(charged(answer)).toBe(0);
  });
});

it("nopost empties a posts listing, not a profile", async () => {
  expect((await call(mock, "/scrape/shortvideo/posts", { username: "nopost" })).body.data.posts).toEqual([]);
  expect((await call(mock, "/scrape/shortvideo/profile", { username: "nopost" })).body.data.username).toBe("nopost");
});

it("notfound names the missing post's identifier", async () => {
  const answer = await call(mock, "/scrape/microblog/post", { url: "microblog.example/Creator/status/notfound" });
  expect(answer.body).toMatchObject({ error: "POST_NOT_FOUND", platform: "microblog", identifier: "notfound" });
});

it("busy carries Retry-After", async () => {
  const answer = await call(mock, "/scrape/shortvideo/profile", { username: "busy" });
  expect(answer.body.error).toBe("SCRAPER_SYSTEM_BUSY");
  expect(answer.headers.get("retry-after")).toBe("1");
});

it("gatewaytimeout is the bare text/plain 504, without JSON", async () => {
  const answer = await call(mock, "/scrape/shortvideo/profile", { username: "gatewaytimeout" });
  expect(answer.headers.get("content-type")).toMatch(/^text\/plain/);
  expect(typeof answer.body).toBe("string");
});

it("slow waits the platform's typical duration (scaled) on the sandbox clock, which advance ends", async () => {
  const slowMock = await start({ timeScale: 1 });
  try {
    let answered = false;
    const slow = call(slowMock, "/scrape/videosite/profile", { username: "slow" }).then((answer) => {
      answered = true;
      return answer;
    });
    // The request is waiting (45 s at time scale 1) until the clock passes its typical duration.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answered).toBe(false);
    // A request still on its way in when the clock moves starts its wait after it: advance again until it answers (on
    // a loaded machine 200 ms may not get it that far). Without the sandbox clock it would wait the whole 45 s.
    for (let tries = 0; !answered && tries < 100; tries++) {
      await slowMock.advance(operationBehaviour.videositeProfile.typicalDurationMs.max / 1000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await slow).status).toBe(200);
  } finally {
    await slowMock.close();
  }
});

it("ratelimited spends the whole bucket in one call: the next call is limited too, until the clock refills it", async () => {
  const key = freshKey();
  const limited = await call(mock, "/scrape/shortvideo/profile", { username: "ratelimited" }, { key });
  expect([limited.status, limited.body.error, charged(limited)]).toEqual([429, "SCRAPER_RATE_LIMITED", 0]);
  expect(limited.headers.get("retry-after")).toBe("1");
  expect(limited.headers.get("x-scraper-ratelimit-remaining")).toBe("0");
  await mock.advance(Number(limited.headers.get("retry-after")));
  expect((await call(mock, "/scrape/shortvideo/profile", { username: "creator" }, { key })).status).toBe(200);
});

it("overshoot makes page one of a nominal listing longer than the page size, and page two shorter", async () => {
  for (const id of ["shortvideoPosts", "photosharePosts", "videositePosts", "microblogPosts"] as const) {
    const { paging, path } = operations[id];
    const first = await call(mock, path, { username: "overshoot" });
    const second = await call(mock, path, { username: "overshoot", cursor: first.body.data.next_cursor });
    expect(first.body.data.posts.length).toBeGreaterThan(paging.pageSize.max);
    expect(second.body.data.posts.length).toBeLessThan(paging.pageSize.max);
  }
});

it("stale as a cursor serves page one, billed", async () => {
  const first = await call(mock, "/scrape/photoshare/posts", { username: "creator" });
  const stale = await call(mock, "/scrape/photoshare/posts", { username: "creator", cursor: "stale" });
  expect(stale.body.data.posts).toEqual(first.body.data.posts);
  expect(charged(stale)).toBe(operations.photosharePosts.credits.standard);
});

it("is not magic in a field that carries no identifier", async () => {
  expect((await call(mock, "/scrape/shortvideo/profile", { username: "creator", note: "notfound" })).status).toBe(200);
  expect((await call(mock, "/scrape/shortvideo/posts", { username: "creator", cursor: "notfound" })).status).toBe(200);
});
