// The control plane over HTTP (`connectSandbox`, as another process or the CLI uses it) and on the handle: reset, the
// clock, balances, the request log, faults; and the bin's commands against a running sandbox.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimit } from "../src/generated/scraper.operations.js";
import { connectSandbox, controlPath, type RunningMock, SandboxControlError } from "../src/index.js";
import { maxPendingFaults } from "../src/limits.js";
import { call, charged, freshKey, operations, start } from "./support.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await start({ credits: 100 });
});
afterAll(() => mock.close());

const profile = (key: string, username = "creator") => call(mock, operations.shortvideoProfile.path, { username }, { key });

describe.each([
  ["the startMock() handle", () => mock],
  ["the control API over HTTP", () => connectSandbox(mock.url)],
])("through %s", (_name, control) => {
  it("sets a key's balance", async () => {
    const key = freshKey();
    await control().setBalance(key, 1);
    expect((await profile(key)).body.meta.credits_remaining).toBe(0);
    expect((await profile(key)).status).toBe(402);
  });

  it("resets one key's state (balance and bucket), and leaves the others'", async () => {
    const [mine, theirs] = [freshKey(), freshKey()];
    await profile(mine);
    await profile(theirs);
    await control().reset(mine);
    expect((await profile(mine)).body.meta.credits_remaining).toBe(100 - 1);
    expect((await profile(theirs)).body.meta.credits_remaining).toBe(100 - 2);
  });

  it("reads the request log: method, path, status, credits charged and request id", async () => {
    const key = freshKey();
    const answer = await profile(key);
    const [entry] = await control().log({ operation: "shortvideoProfile", limit: 1 });
    expect(entry).toEqual({
      time: expect.any(String),
      surface: "scraper",
      operation: "shortvideoProfile",
      method: "POST",
      path: `/api/v1${operations.shortvideoProfile.path}`,
      status: 200,
      creditsCharged: 1,
      requestId: answer.body.request_id,
    });
    expect(JSON.stringify(await control().log())).not.toContain(key);
  });

  it("injects a documented fault on the next N requests of an operation, answered in the surface's own terms", async () => {
    const key = freshKey();
    const fault = await control().inject({ operation: "shortvideoProfile", status: 502, count: 2 });
    expect(fault).toMatchObject({ surface: "scraper", operation: "shortvideoProfile", status: 502, remaining: 2 });
    for (let index = 0; index < 2; index++) {
      const failed = await profile(key);
      expect([failed.status, failed.body.error, charged(failed)]).toEqual([502, "UPSTREAM_ERROR", 0]);
    }
    expect((await profile(key)).status).toBe(200);
    expect(await control().faults()).toEqual([]);
  });

  it("injects latency on the sandbox clock, which advance ends", async () => {
    await control().inject({ operation: "shortvideoProfile", latencySeconds: 3600 });
    let answered = false;
    const late = profile(freshKey()).then((answer) => {
      answered = true;
      return answer;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answered).toBe(false);
    await control().advance(3600);
    expect((await late).status).toBe(200);
  });

  it("refuses a bad call with SandboxControlError naming the field", async () => {
    for (const [attempt, field] of [
      [() => control().inject({ operation: "noSuchOperation", status: 500 }), "operation"],
      [() => control().inject({ operation: "shortvideoProfile", status: 99 }), "status"],
      [() => control().inject({ operation: "getPostMetricsHistory", status: 404 }), "surface"],
      [() => control().inject({ operation: "shortvideoProfile" }), "status"],
      [() => control().inject({ operation: "executePayout", status: 404 }), "status"],
      [() => control().advance(-1), "seconds"],
      [() => control().setBalance("sk_live_connect", 5), "key"],
      [() => control().setBalance(freshKey(), -5), "credits"],
    ] as const) {
      const error = await attempt().then(() => undefined, (reason: unknown) => reason);
      expect(error).toBeInstanceOf(SandboxControlError);
      expect((error as SandboxControlError).field).toBe(field);
      expect(String(error)).not.toContain("sk_live_connect");
    }
  });
});

it("advances the clock: buckets refill and the clock reports how far ahead it is", async () => {
  const key = freshKey();
  await profile(key, "ratelimited");
  expect((await profile(key)).status).toBe(429);
  const before = await mock.clock();
  const after = await mock.advance(60);
  expect(after.advancedSeconds - before.advancedSeconds).toBe(60);
  expect(Date.parse(after.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(60_000);
  const refilled = await profile(key);
  expect(Number(refilled.headers.get("x-scraper-ratelimit-remaining"))).toBe(rateLimit.requestsPerMinute - 1);
});

it("keeps request ids well-formed after an advance by a fraction of a millisecond (a jittered backoff's sleep)", async () => {
  await mock.advance(0.000_437);
  const answer = await profile(freshKey());
  expect(answer.body.request_id).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
  const [entry] = await mock.log({ limit: 1 });
  expect(entry?.requestId).toBe(answer.body.request_id);
});

it("resets everything: balances, the log, faults and the clock", async () => {
  const own = await start({ credits: 10 });
  try {
    const key = freshKey();
    await call(own, operations.shortvideoProfile.path, { username: "creator" }, { key });
    await own.inject({ operation: "shortvideoPosts", status: 500 });
    await own.advance(3600);
    await own.reset();
    expect(await own.log()).toEqual([]);
    expect(await own.faults()).toEqual([]);
    expect((await own.clock()).advancedSeconds).toBe(0);
    expect((await call(own, operations.shortvideoProfile.path, { username: "creator" }, { key })).body.meta.credits_remaining).toBe(9);
  } finally {
    await own.close();
  }
});

it("answers an unknown control route with 404, and another method with 405 and Allow", async () => {
  expect((await fetch(`${mock.url}${controlPath}/nothing`)).status).toBe(404);
  const wrong = await fetch(`${mock.url}${controlPath}/reset`);
  expect([wrong.status, wrong.headers.get("allow")]).toEqual([405, "POST"]);
  const malformed = await fetch(`${mock.url}${controlPath}/reset`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
  expect(malformed.status).toBe(400);
});

it("lives under a path that no surface's server and path can reach", () => {
  for (const api of ["scraper", "platform", "platform-legacy", "connect"]) {
    type Description = { servers?: Array<{ url: string }>; paths: Record<string, { servers?: Array<{ url: string }> } & Record<string, unknown>> };
    const description = JSON.parse(readFileSync(createRequire(import.meta.url).resolve(`@content-scraper/spec/${api}.json`), "utf8")) as Description;
    for (const [path, item] of Object.entries(description.paths)) {
      for (const server of [...(description.servers ?? []), ...(item.servers ?? [])]) {
        const full = new URL(server.url.replace(/\{[^}]*\}/g, "host")).pathname.replace(/\/$/, "") + path;
        expect(full.startsWith(`${controlPath}/`) || full === controlPath, full).toBe(false);
      }
    }
  }
});

describe("the bin's commands", () => {
  const bin = fileURLToPath(new URL("../dist/bin/mock.js", import.meta.url));
  // The key the commands send comes from the environment (test/secrets.test.ts: never the command line).
  let key = "";
  const run = (...args: string[]) => promisify(execFile)(process.execPath, [bin, ...args, "--url", mock.url], { env: { ...process.env, SCRAPER_API_KEY: key } });

  it("set a balance, inject a fault, advance the clock, read the log and reset, over HTTP", async () => {
    key = freshKey("cli");
    expect((await run("balance", "--credits", "7")).stdout).toContain("7 credits");
    expect((await profile(key)).body.meta.credits_remaining).toBe(6);
    expect((await run("fault", "shortvideoProfile", "--status", "504", "--count", "1")).stdout).toContain("answer 504");
    expect((await profile(key)).status).toBe(504);
    expect(JSON.parse((await run("advance", "1h", "--json")).stdout).advancedSeconds).toBeGreaterThanOrEqual(3600);
    expect((await run("log", "--operation", "shortvideoProfile", "--limit", "1")).stdout).toMatch(/POST \/api\/v1\/scrape\/shortvideo\/profile 504 credits=0 req_/);
    expect((await run("reset", "--scraper-key")).stdout).toContain("reset: that credential's state");
    expect((await profile(key)).body.meta.credits_remaining).toBe(99);
  });

  it("say what is wrong, naming the field, with a non-zero exit", async () => {
    const failed = await run("fault", "executePayout", "--status", "404").then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain("status: executePayout documents no status 404");
  });
});

it("keeps at most its limit of faults waiting, and says so naming the field", async () => {
  const own = await start();
  try {
    for (let index = 0; index < maxPendingFaults; index++) await own.inject({ operation: "shortvideoRegions", status: 500 });
    const refused = await own.inject({ operation: "shortvideoRegions", status: 500 }).catch((error: unknown) => error);
    expect((refused as SandboxControlError).field).toBe("faults");
    expect(await own.faults()).toHaveLength(maxPendingFaults);
  } finally {
    await own.close();
  }
});
