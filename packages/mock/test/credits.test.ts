// A ledger per key: charges follow the description's billing extensions, and meta and headers agree.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMock } from "../src/index.js";
import { sandboxKeys } from "../src/index.js";
import { call, charged, freshKey, operations, start } from "./support.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await start({ credits: 100 });
});
afterAll(() => mock.close());

const remaining = (answer: { body: { meta: { credits_remaining: number } } }) => answer.body.meta.credits_remaining;

describe("the ledger", () => {
  it("debits each billed answer at the operation's rate, and meta agrees with the headers", async () => {
    const key = freshKey();
    const profile = await call(mock, "/scrape/shortvideo/profile", { username: "creator" }, { key });
    expect(remaining(profile)).toBe(100 - operations.shortvideoProfile.credits.standard);
    const audience = await call(mock, "/scrape/photoshare/audience", { username: "creator" }, { key });
    expect(audience.body.meta.credits_charged).toBe(operations.photoshareAudience.credits.standard);
    expect(remaining(audience)).toBe(remaining(profile) - operations.photoshareAudience.credits.standard);
    expect(Number(audience.headers.get("x-scraper-credits-remaining"))).toBe(remaining(audience));
  });

  it("bills a confirmed not-found at the full rate, and refunds the service's failures", async () => {
    const key = freshKey();
    const notFound = await call(mock, "/scrape/shortvideo/audience", { username: "notfound" }, { key });
    expect(notFound.status).toBe(404);
    expect(charged(notFound)).toBe(operations.shortvideoAudience.credits.standard);
    for (const username of ["upstreamerror", "upstreamtimeout", "internalerror", "busy"]) {
      expect(charged(await call(mock, "/scrape/shortvideo/profile", { username }, { key }))).toBe(0);
    }
    const after = await call(mock, "/scrape/shortvideo/profile", { username: "creator" }, { key });
    expect(remaining(after)).toBe(100 - operations.shortvideoAudience.credits.standard - operations.shortvideoProfile.credits.standard);
  });

  it("charges nothing for what it refuses before work starts", async () => {
    const key = freshKey();
    await call(mock, "/scrape/shortvideo/profile", { username: "not valid" }, { key });
    await call(mock, "/scrape/shortvideo/favorites", { handle: "a", unknown: 1 }, { key });
    await call(mock, "/scrape/shortvideo/no-such-operation", {}, { key });
    const after = await call(mock, "/scrape/shortvideo/profile", { username: "creator" }, { key });
    expect(remaining(after)).toBe(100 - operations.shortvideoProfile.credits.standard);
  });

  it("answers 402 once the balance cannot cover a request, and keeps separate balances per key", async () => {
    const key = freshKey();
    for (let spent = 0; spent + 25 <= 100; spent += 25) expect((await call(mock, "/scrape/shortvideo/audience", {}, { key })).status).toBe(200);
    const empty = await call(mock, "/scrape/shortvideo/profile", { username: "creator" }, { key });
    expect(empty.status).toBe(402);
    expect(empty.body.error).toBe("INSUFFICIENT_SCRAPER_CREDITS");
    expect(charged(empty)).toBe(0);
    expect((await call(mock, "/scrape/shortvideo/profile", { username: "creator" })).status).toBe(200);
  });

  it("answers 402 for the documented empty-balance key", async () => {
    const answer = await call(mock, "/scrape/shortvideo/profile", { username: "creator" }, { key: sandboxKeys.empty });
    expect(answer.status).toBe(402);
  });

  it("never lets concurrent requests overdraw a balance", async () => {
    const key = freshKey();
    const answers = await Promise.all(Array.from({ length: 8 }, () => call(mock, "/scrape/photoshare/audience", {}, { key })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(4);
    expect(answers.filter((answer) => answer.status === 402)).toHaveLength(4);
  });
});
