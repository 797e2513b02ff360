import { defaultMaxResponseBytes } from "@content-scraper/runtime";
import { expect, it } from "vitest";
import { allowedGrowth, heavyBodies, peakGrowth, timeoutMs } from "../src/memory.js";
import { subjects } from "../src/subjects.js";

// pnpm bench: the peak RSS growth of one call of every client, with its default maxResponseBytes (16 MiB), reading an
// endless body and 1 GiB gzip and brotli bombs. Target: under 2 × maxResponseBytes + 100 MB.
it("peak RSS growth reading hostile bodies, default maxResponseBytes", async () => {
  const bound = allowedGrowth(defaultMaxResponseBytes);
  const rows = [];
  for (const [index, subject] of subjects.entries()) {
    for (const [body, handler, ends] of heavyBodies) {
      const { growthBytes, error } = await peakGrowth(index, handler, undefined, timeoutMs[ends]);
      rows.push({
        client: subject.name,
        body,
        "peak RSS growth": `${(growthBytes / 1e6).toFixed(1)} MB`,
        target: `< ${(bound / 1e6).toFixed(0)} MB`,
        met: growthBytes < bound && error?.name === subject.errors[ends].name ? "yes" : "NO",
      });
    }
  }
  console.table(rows);
  expect(rows.filter((row) => row.met !== "yes")).toEqual([]);
});
