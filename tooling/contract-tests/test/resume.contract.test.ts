import type { RunningMock } from "@content-scraper/mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error a plain ES module shared with the bench, typed by its use here
import { resumeRuns } from "../src/resume.mjs";
import { startSandbox } from "./support.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startSandbox({ requestsPerMinute: 100_000 });
});
afterAll(() => mock.close());

describe("interrupted walks resumed from their saved state", () => {
  it("100 seeded runs: at most one page more than an uninterrupted walk, no duplicate, no loss, credits equal to the sandbox ledger", async () => {
    const figures = await resumeRuns(mock, { runs: 100, seed: 7 });
    expect(figures).toMatchObject({ duplicates: 0, missing: 0, creditMismatches: 0 });
    expect(figures.maxExtraPages).toBeLessThanOrEqual(1);
    expect(figures.multiPage).toBeGreaterThan(50); // most catalogs have several pages, so the crash lands mid-walk
  }, 120_000);
});
