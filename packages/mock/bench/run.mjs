// pnpm bench: requests per second of the sandbox's gateway against bare Prism on the same description, each in one
// child process, loaded by the same autocannon run after run. Target: bare Prism at most 1.2× the gateway's rate.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import autocannon from "autocannon";

const require = createRequire(import.meta.url);
const description = require.resolve("@content-scraper/spec/scraper.json");
const prismCli = require.resolve("@stoplight/prism-cli/dist/index.js");
const gatewayBin = new URL("../dist/bin/mock.js", import.meta.url).pathname;
const target = 1.2;
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

async function freePort() {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address();
  server.close();
  return port;
}

/** Starts a server in its own process and waits until it answers. */
async function start(name, args, probe) {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"] });
  for (let waited = 0; ; waited += 100) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    if (waited > 30_000) throw new Error(`${name} did not start`);
    if (await probe().catch(() => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    async stop() {
      child.kill("SIGTERM");
      if (child.exitCode === null) await once(child, "exit");
    },
  };
}

const headers = { "content-type": "application/json", "x-api-key": "scrape_live_bench" };
const scenarios = [
  { name: "profile", path: "/scrape/shortvideo/profile", body: JSON.stringify({ username: "creator" }) },
  { name: "posts page", path: "/scrape/shortvideo/posts", body: JSON.stringify({ username: "creator" }) },
];

function load(url, body) {
  return autocannon({ url, method: "POST", headers, body, connections: 10, duration: seconds });
}

const prismPort = await freePort();
const gatewayPort = await freePort();
const prismUrl = `http://127.0.0.1:${prismPort}`;
// The gateway mounts the scraper at its base path; bare Prism serves the description's paths as they are.
const gatewayUrl = `http://127.0.0.1:${gatewayPort}/api/v1`;
const answers = (base) => async () => (await fetch(`${base}${scenarios[0].path}`, { method: "POST", headers, body: scenarios[0].body })).ok;

const prism = await start("bare Prism", [prismCli, "mock", "--port", String(prismPort), "--multiprocess", "false", "--verboseLevel", "silent", description], answers(prismUrl));
// The bench key would run out of tokens at the default 120 a minute: lift the rate limit, keep every other rule.
const gateway = await start("gateway", [gatewayBin, "--port", String(gatewayPort), "--rate-limit", "100000000"], answers(gatewayUrl));

const rows = [];
let pass = true;
try {
  for (const scenario of scenarios) {
    const rates = { prism: [], gateway: [] };
    await load(`${prismUrl}${scenario.path}`, scenario.body); // warm-up
    await load(`${gatewayUrl}${scenario.path}`, scenario.body);
    // Alternating rounds, so that drift in the machine's speed hits both alike; the median of each.
    for (let round = 0; round < rounds; round++) {
      for (const [arm, base] of [["prism", prismUrl], ["gateway", gatewayUrl]]) {
        const result = await load(`${base}${scenario.path}`, scenario.body);
        if (result.non2xx || result.errors) throw new Error(`${arm} ${scenario.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
        rates[arm].push(result.requests.average);
      }
    }
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const ratio = median(rates.prism) / median(rates.gateway);
    pass &&= ratio <= target;
    rows.push({
      scenario: scenario.name,
      "bare Prism (req/s)": Math.round(median(rates.prism)),
      "gateway (req/s)": Math.round(median(rates.gateway)),
      "Prism ÷ gateway": `${ratio.toFixed(2)}×`,
      target: `≤ ${target}×`,
      pass: ratio <= target ? "yes" : "NO",
    });
  }
} finally {
  await Promise.all([prism.stop(), gateway.stop()]);
}

console.log(`One process each, autocannon with 10 connections, ${rounds} alternating rounds of ${seconds} s (median):`);
console.table(rows);
if (!pass) {
  console.error(`The fidelity layer's overhead is over its target (${target}×).`);
  process.exit(1);
}
