// pnpm bench: the MCP server's costs, as ratios against baselines measured in the same run, against the sandbox (in a
// process of its own, as the service would be).
//  1. tool-call overhead: a tool call through the SDK's client and the server (in-memory transport, so the ratio is
//     the server's own work: JSON-RPC, argument validation, the allowance, the answer) vs the same call made directly
//     on the client (target ≤ 1.35×); for reference, a bare SDK server whose one tool calls the client and returns its
//     result (the SDK's own cost, without this server's checks), and the same call over stdio to the built bin, the
//     process boundary included;
//  2. the size of the tool list of a profile-only --allow (bytes, and tokens at about 4 bytes each).
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createScraperClient } from "@content-scraper/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { createScraperMcp } from "../dist/index.js";

const apiKey = "scrape_live_mcp_bench";
const results = [];
const report = (name, value, target, pass) => results.push({ name, value, target, pass });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The sandbox's bin on a free port: its scraper base URL, and how to stop it. */
async function startSandbox() {
  const bin = createRequire(import.meta.url).resolve("@content-scraper/mock/package.json").replace("package.json", "dist/bin/mock.js");
  const child = spawn(process.execPath, [bin, "--port", "0", "--time-scale", "0", "--rate-limit", "100000000", "--credits", "100000000"], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  const scraper = await new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      output += chunk;
      const found = /scraper\s+(\S+)/.exec(output);
      if (found) resolve(found[1]);
    });
    child.once("exit", () => reject(new Error(`the sandbox did not start: ${output}`)));
  });
  return { baseUrls: { scraper }, close: () => child.kill() };
}

const mock = await startSandbox();
const budget = { maxCredits: 10_000_000 };
const client = () => createScraperClient({ apiKey, baseUrl: mock.baseUrls.scraper, rateLimit: false, budget });

async function connected(server) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const sdk = new Client({ name: "bench", version: "1" });
  await sdk.connect(clientSide);
  return sdk;
}

async function overhead() {
  const direct = client();
  const inMemory = await connected((await createScraperMcp({ client: client() })).session());
  const floorClient = client();
  const bare = new Server({ name: "bare", version: "1" }, { capabilities: { tools: {} } });
  bare.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const { data, meta } = await floorClient.profile("shortvideo", params.arguments.username);
    return { content: [{ type: "text", text: JSON.stringify({ data, meta }) }], structuredContent: { data, meta } };
  });
  const floor = await connected(bare);
  const stdio = new Client({ name: "bench", version: "1" });
  const args = ["bin.js", "--max-credits", String(budget.maxCredits), "--base-url", mock.baseUrls.scraper, "--requests-per-minute", "100000000"];
  await stdio.connect(new StdioClientTransport({ command: process.execPath, args: args.map((arg, i) => (i === 0 ? new URL("../dist/bin.js", import.meta.url).pathname : arg)), env: { ...getDefaultEnvironment(), SCRAPER_API_KEY: apiKey } }));
  const call = { name: "shortvideoProfile", arguments: { username: "creator" } };
  const succeeds = (client) => async () => {
    if ((await client.callTool(call)).isError) throw new Error("a tool call failed");
  };
  // `signalled`: the direct call given a signal, as every tool call passes the agent's cancellation to the client.
  const signalled = () => direct.profile("shortvideo", "creator", { signal: new AbortController().signal });
  const arms = { direct: () => direct.profile("shortvideo", "creator"), signalled, floor: succeeds(floor), mcp: succeeds(inMemory), stdio: succeeds(stdio) };
  const names = Object.keys(arms);
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (const arm of Object.values(arms)) for (let i = 0; i < 500; i++) await arm(); // warm up, the sandbox too (its first rounds read up to twice as slow)
  // Interleaved rounds, the arms' order rotating, so that drift in the machine's speed hits every arm alike. A round's
  // ratio is noisy (its middle half spans about 0.25): with 31 rounds the median wandered by about 0.15 between runs
  // minutes apart; with 93 it follows only the machine's speed, by about 0.05.
  for (let round = 0; round < 93; round++) {
    for (let turn = 0; turn < names.length; turn++) {
      const name = names[(round + turn) % names.length];
      const started = performance.now();
      for (let i = 0; i < 100; i++) await arms[name]();
      times[name].push((performance.now() - started) / 100);
    }
  }
  await Promise.all([inMemory.close(), floor.close(), stdio.close()]);
  const ratiosOf = (name) => times[name].map((time, round) => time / times.direct[round]).sort((a, b) => a - b);
  const ratioTo = (name) => median(ratiosOf(name));
  report("per-call time, direct client call against the sandbox", `${(median(times.direct) * 1000).toFixed(0)} µs`, "baseline", true);
  report("the direct call given a signal (each tool call passes one)", `${ratioTo("signalled").toFixed(3)}×`, "reported", true);
  report("a bare SDK server whose tool calls the client (in memory)", `${ratioTo("floor").toFixed(3)}×`, "reported", true);
  const ratios = ratiosOf("mcp");
  const ratio = median(ratios);
  const middleHalf = `${ratios[ratios.length >> 2].toFixed(2)}-${ratios[(3 * ratios.length) >> 2].toFixed(2)}`;
  report("tool-call overhead: SDK client → server (in memory) → client", `${ratio.toFixed(3)}× (median of ${ratios.length} rounds; middle half ${middleHalf})`, "≤ 1.35×", ratio <= 1.35);
  report("the same over stdio to the bin (process boundary included)", `${ratioTo("stdio").toFixed(3)}×`, "reported", true);
}

async function toolList() {
  for (const allow of [["*Profile"], ["shortvideoProfile"]]) {
    const sdk = await connected((await createScraperMcp({ client: client(), allow })).session());
    const bytes = Buffer.byteLength(JSON.stringify(await sdk.listTools()));
    await sdk.close();
    report(`tool list of --allow ${allow.join(",")}`, `${bytes} bytes, about ${Math.round(bytes / 4)} tokens`, "reported", true);
  }
}

try {
  await overhead();
  await toolList();
} finally {
  await mock.close();
}
console.table(results.map(({ name, value, target, pass }) => ({ measure: name, value, target, met: pass ? "yes" : "NO" })));
if (results.some((result) => !result.pass)) {
  console.error("a benchmark target was missed");
  process.exitCode = 1;
}
