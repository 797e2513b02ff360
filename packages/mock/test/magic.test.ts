// The magic inputs answer what the README's table (the `answer` of each) says they answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../src/generated/scraper.operations.js";
import { magicInputs, type RunningMock } from "../src/index.js";
import { call, charged, start } from "./support.js";

let mock: RunningMock;
beforeAll(async () => {
  // Durations at 1/100: `slow` on shortvideo then takes a few dozen milliseconds.
  mock = await start({ timeScale: 0.01 });
});
afterAll(() => mock.close());

describe.each(magicInputs)("$input", ({ input, answer: documented }) => {
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

it("slow waits the platform's typical duration (scaled)", async () => {
  const started = performance.now();
  await call(mock, "/scrape/shortvideo/profile", { username: "slow" });
  expect(performance.now() - started).toBeGreaterThanOrEqual(operations.shortvideoProfile.typicalDurationMs.max * 0.01 - 1);
});

it("is not magic in a field that carries no identifier", async () => {
  expect((await call(mock, "/scrape/shortvideo/profile", { username: "creator", note: "notfound" })).status).toBe(200);
  expect((await call(mock, "/scrape/shortvideo/posts", { username: "creator", cursor: "notfound" })).status).toBe(200);
});
