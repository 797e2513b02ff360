// How long `reset()` takes on a sandbox that has seen many keys, tokens and idempotent writes (the target: under
// 50 ms), measured in process, median of several rounds after warm-up. Prints one line per measure.
import { performance } from "node:perf_hooks";
import { startMock } from "../dist/index.js";

const keys = 2_000;
const rounds = 7;
const mock = await startMock({ port: 0, timeScale: 0 });

async function fill() {
  const requests = [];
  for (let index = 0; index < keys; index++) {
    requests.push(
      fetch(`${mock.baseUrls.scraper}/scrape/shortvideo/profile`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": `scrape_live_bench_${index}` },
        body: '{"username":"creator"}',
      }).then((response) => response.arrayBuffer()),
      fetch(`${mock.baseUrls.platform}/invoices`, {
        method: "POST",
        headers: { authorization: `Bearer bench_${index}`, "idempotency-key": `bench-key-${index}`, "content-type": "application/json" },
        body: "{}",
      }).then((response) => response.arrayBuffer()),
    );
    if (requests.length >= 200) await Promise.all(requests.splice(0));
  }
  await Promise.all(requests);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const all = [];
const one = [];
for (let round = 0; round < rounds; round++) {
  await fill();
  let started = performance.now();
  await mock.reset("scrape_live_bench_7");
  one.push(performance.now() - started);
  started = performance.now();
  await mock.reset();
  all.push(performance.now() - started);
}
await mock.close();
console.log(`reset(key) after ${keys} keys, tokens and stored writes: median ${median(one).toFixed(2)} ms`);
console.log(`reset() of everything after ${keys} keys, tokens and stored writes and ${2 * keys} logged requests: median ${median(all).toFixed(2)} ms`);
