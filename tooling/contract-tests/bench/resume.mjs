// pnpm bench: 100 seeded catalog walks against the sandbox, each stopped at a random post as a crash would and resumed
// from its saved state; what the resumed walks cost beyond uninterrupted ones (target: at most one page each, no
// duplicate, credits equal to the sandbox ledger).
import { startMock } from "@content-scraper/mock";
import { resumeRuns } from "../src/resume.mjs";

const mock = await startMock({ port: 0, timeScale: 0, requestsPerMinute: 100_000 });
const started = performance.now();
const figures = await resumeRuns(mock, { runs: 100, seed: Number(process.env.SEED ?? 7) });
await mock.close();
const pass = figures.maxExtraPages <= 1 && figures.duplicates === 0 && figures.missing === 0 && figures.creditMismatches === 0;
console.table([
  { measure: "runs (catalogs of several pages)", value: `${figures.runs} (${figures.multiPage})`, target: "100" },
  { measure: "most extra pages fetched by a resumed walk", value: figures.maxExtraPages, target: "≤ 1" },
  { measure: "duplicate posts", value: figures.duplicates, target: "0" },
  { measure: "posts lost", value: figures.missing, target: "0" },
  { measure: "runs whose credits differ from the sandbox ledger", value: figures.creditMismatches, target: "0" },
  { measure: "time", value: `${((performance.now() - started) / 1000).toFixed(1)} s`, target: "" },
]);
if (!pass) process.exitCode = 1;
