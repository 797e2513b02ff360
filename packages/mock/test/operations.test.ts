// Every operation answers its documented success, in static and in seeded dynamic mode, and can be asked for each of
// its documented responses with `Prefer: code=…`; every body validates against the description (see `call`).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMock } from "../src/index.js";
import { type Answer, call, charged, freshKey, operationIds, operations, requestExample, start } from "./support.js";

function expectSuccess(answer: Answer, id: (typeof operationIds)[number]) {
  expect(answer.status).toBe(200);
  const price = operations[id].credits.standard;
  expect(answer.body.meta.credits_charged).toBe(price);
  expect(charged(answer)).toBe(price);
  expect(Number(answer.headers.get("x-scraper-credits-remaining"))).toBe(answer.body.meta.credits_remaining);
  for (const header of ["limit", "remaining", "reset"]) expect(answer.headers.get(`x-scraper-ratelimit-${header}`)).toMatch(/^\d+$/);
  expect(answer.body.request_id).toMatch(/^req_[0-9A-Z]{26}$/);
}

describe.each([
  { mode: "static examples", dynamic: false },
  { mode: "dynamic payloads", dynamic: true },
])("every operation, $mode", ({ dynamic }) => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await start({ dynamic, seed: "operations" });
  });
  afterAll(() => mock.close());

  it.each(operationIds)("%s answers its documented success", async (id) => {
    expectSuccess(await call(mock, operations[id].path, requestExample(id)), id);
  });

  it("is deterministic for a seed and an input", async () => {
    const first = await call(mock, operations.shortvideoProfile.path, { username: "same" });
    const second = await call(mock, operations.shortvideoProfile.path, { username: "same" });
    expect(second.body.data).toEqual(first.body.data);
  });
});

describe("Prefer reaches Prism", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await start();
  });
  afterAll(() => mock.close());

  // `default` stands for any status the operation does not list; 503 is the sandbox's SCRAPER_SYSTEM_BUSY.
  const cases = operationIds.flatMap((id) => Object.keys(operations[id].billing).map((status) => [id, status === "default" ? "503" : status] as const));

  it.each(cases)("%s answers Prefer: code=%s with that documented response", async (id, status) => {
    const answer = await call(mock, operations[id].path, requestExample(id), { headers: { prefer: `code=${status}` } });
    expect(answer.status).toBe(Number(status));
    if (answer.status >= 400) expect(answer.body.error).toEqual(expect.any(String));
  });

  it("serves the gateway's text/plain 504 when asked for it", async () => {
    const answer = await call(mock, "/scrape/videosite/profile", { username: "creator" }, { headers: { prefer: "code=504", accept: "text/plain" } });
    expect(answer.status).toBe(504);
    expect(answer.headers.get("content-type")).toMatch(/^text\/plain/);
  });

  it("serves a named example, and says so when there is no such example", async () => {
    const named = await call(mock, "/scrape/shortvideo/profile", { username: "a" }, { headers: { prefer: "code=404, example=ProfileNotFound" } });
    expect(named.body.error).toBe("PROFILE_NOT_FOUND");
    const unknown = await call(mock, "/scrape/shortvideo/profile", { username: "a" }, { headers: { prefer: "example=NoSuchExample" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: "INVALID_INPUT", field: "Prefer" });
  });

  it("rejects a malformed preference instead of ignoring it", async () => {
    const answer = await call(mock, "/scrape/shortvideo/profile", { username: "a" }, { headers: { prefer: "code=40" } });
    expect(answer.body).toMatchObject({ error: "INVALID_INPUT", field: "Prefer" });
  });

  it("bills what Prism serves by the description's billing: a 404 is billed, a 502 refunded", async () => {
    const key = freshKey();
    const notFound = await call(mock, "/scrape/shortvideo/audience", {}, { key, headers: { prefer: "code=404" } });
    expect(charged(notFound)).toBe(operations.shortvideoAudience.credits.standard);
    const failed = await call(mock, "/scrape/shortvideo/audience", {}, { key, headers: { prefer: "code=502" } });
    expect(charged(failed)).toBe(0);
  });
});
