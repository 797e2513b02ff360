// The scraper client's retries, driven by faults injected through the sandbox's control API: refunded failures are
// retried with backoff and cost nothing, a 429 is waited out for exactly its Retry-After (the sandbox bucket's, on the
// sandbox clock), billed answers are never retried. The request log shows what the client actually sent.
import { ScraperApiError } from "@content-scraper/client";
import { connectSandbox, type RunningMock } from "@content-scraper/mock";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { clientFor, startSandbox, takeProblems } from "./support.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startSandbox({ seed: "retries" });
});
afterAll(() => mock.close());
afterEach(async () => {
  expect(takeProblems()).toEqual([]);
  await mock.reset();
});

const profileLog = async () => (await mock.log({ operation: "shortvideoProfile" })).map((entry) => [entry.status, entry.creditsCharged]);

it("retries injected refunded failures with backoff until the lookup succeeds, charging only the success", async () => {
  // Injected over HTTP, as a test in another process would.
  await connectSandbox(mock.url).inject({ operation: "shortvideoProfile", status: 502, count: 2 });
  const { meta } = await clientFor(mock, { retry: { maxRetries: 3 } }).profile("shortvideo", "creator");
  expect(meta.creditsCharged).toBe(1);
  expect(await profileLog()).toEqual([
    [502, 0],
    [502, 0],
    [200, 1],
  ]);
});

it("gives up after maxRetries with the typed refunded error", async () => {
  await mock.inject({ operation: "shortvideoProfile", status: 500, count: 5 });
  const error = await clientFor(mock, { retry: { maxRetries: 1 } })
    .profile("shortvideo", "creator")
    .catch((reason: unknown) => reason);
  expect(error).toBeInstanceOf(ScraperApiError);
  expect(error).toMatchObject({ status: 500, code: "INTERNAL_ERROR", billed: false, retryable: true });
  expect(await profileLog()).toEqual([
    [500, 0],
    [500, 0],
  ]);
});

it("waits out an injected 429 for its Retry-After, then succeeds", async () => {
  await mock.inject({ operation: "shortvideoProfile", status: 429, count: 1 });
  const { meta } = await clientFor(mock, { rateLimit: false, retry: { maxRetries: 2 } }).profile("shortvideo", "creator");
  expect(meta.creditsCharged).toBe(1);
  const log = await mock.log({ operation: "shortvideoProfile" });
  expect(log.map((entry) => entry.status)).toEqual([429, 200]);
  // The client waited at least the Retry-After the sandbox sent (whole seconds, at least 1), on the sandbox clock.
  expect(Date.parse(log[1]?.time as string) - Date.parse(log[0]?.time as string)).toBeGreaterThanOrEqual(1000);
});

it("never retries an injected billed not-found", async () => {
  await mock.inject({ operation: "shortvideoProfile", status: 404, count: 3 });
  const error = await clientFor(mock, { retry: { maxRetries: 3 } })
    .profile("shortvideo", "creator")
    .catch((reason: unknown) => reason);
  expect(error).toMatchObject({ status: 404, code: "PROFILE_NOT_FOUND", billed: true, retryable: false });
  expect(await profileLog()).toEqual([[404, 1]]);
});

it("runs its retry waits on the sandbox's clock when told to: the backoff and the Retry-After pass at once", async () => {
  await mock.inject({ operation: "shortvideoProfile", status: 502, count: 1 });
  await mock.inject({ operation: "shortvideoProfile", status: 429, count: 1 });
  const waits: number[] = [];
  const client = clientFor(mock, {
    rateLimit: false,
    retry: { maxRetries: 2, baseDelayMs: 30_000, maxDelayMs: 300_000 }, // the description's backoff, unscaled
    sleep: async (ms) => {
      waits.push(ms);
      await mock.advance(ms / 1000);
    },
  });
  const started = performance.now();
  const { meta } = await client.profile("shortvideo", "creator");
  expect(meta.creditsCharged).toBe(1);
  expect((await mock.log({ operation: "shortvideoProfile" })).map((entry) => entry.status)).toEqual([502, 429, 200]);
  expect(waits[0]).toBeGreaterThanOrEqual(30_000); // the first backoff step, jitter on top
  expect(waits[1]).toBeGreaterThanOrEqual(1_000); // the sandbox bucket's Retry-After, in whole seconds
  expect((await mock.clock()).advancedSeconds).toBeGreaterThanOrEqual(31);
  expect(performance.now() - started).toBeLessThan(30_000); // none of the half minute was waited for real
});
