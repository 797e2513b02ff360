// Where a sandbox's start goes, in a fresh process each time (median of several): Node's own start until the first line
// of a script runs, loading the package, `startMock()` until it listens, and the first answer to a profile call. The
// mock's README reports it; `pnpm bench` prints it after the start row.
import { spawnSync } from "node:child_process";

const index = new URL("../dist/index.js", import.meta.url).href;
const runs = Number(process.env.BENCH_START_ROUNDS ?? 5);
const script = `
const booted = performance.now();
const { startMock } = await import(${JSON.stringify(index)});
const imported = performance.now();
const mock = await startMock({ port: 0 });
const listening = performance.now();
// node:http rather than fetch, whose first call loads its own implementation.
const { request } = await import("node:http");
await new Promise((resolve, reject) => {
  const headers = { "content-type": "application/json", "x-api-key": "scrape_live_split" };
  request(mock.baseUrls.scraper + "/scrape/shortvideo/profile", { method: "POST", headers }, (response) => response.resume().on("end", resolve))
    .on("error", reject)
    .end('{"username":"creator"}');
});
const answered = performance.now();
await mock.close();
console.log(JSON.stringify({ node: booted, import: imported - booted, start: listening - imported, answer: answered - listening }));
`;

const phases = { node: [], import: [], start: [], answer: [] };
for (let run = 0; run < runs; run++) {
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  if (child.status !== 0) throw new Error(`the split run failed: ${child.stderr}`);
  for (const [phase, ms] of Object.entries(JSON.parse(child.stdout))) phases[phase].push(ms);
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const names = {
  node: "Node starts, until the script's first line",
  import: "loading @content-scraper/mock",
  start: "startMock(): prepared descriptions read, surfaces made, listening",
  answer: "the first profile call answered",
};
console.log(`Where the start goes (median of ${runs} fresh processes):`);
console.table(Object.entries(names).map(([phase, measure]) => ({ measure, ms: Math.round(median(phases[phase])) })));
