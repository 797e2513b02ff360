// Each Node line runs this from a folder where the packages were installed: `node tools-entry.mjs '<targets JSON>'`.
// The CLI's export and an MCP tool call against an upstream that sends its headers and then nothing: each must end on
// its own within its timeout, as an integrator's pipeline or agent would need. It prints the results as JSON.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const require = createRequire(join(process.cwd(), "package.json"));
/** The file of a package's one bin, as npm linked it. @param {string} name */
function bin(name) {
  const manifest = require.resolve(`@content-scraper/${name}/package.json`);
  const { bin: bins } = JSON.parse(readFileSync(manifest, "utf8"));
  return join(dirname(manifest), typeof bins === "string" ? bins : Object.values(bins)[0]);
}
const { hostile } = JSON.parse(process.argv[2] ?? "{}");
const stalled = `${hostile}/stall/api/v1`;
const env = { ...process.env, SCRAPER_API_KEY: "scrape_live_matrix" };

/** @type {Record<string, Record<string, unknown>>} */
const results = {};
/** @param {string} name @param {() => Promise<Record<string, unknown>>} work */
async function run(name, work) {
  const started = Date.now();
  try {
    results[name] = { ...(await work()), ms: Date.now() - started };
  } catch (error) {
    results[name] = { error: String(error), ms: Date.now() - started };
  }
}

await run("CLI export, a stalled upstream", async () => {
  const folder = mkdtempSync(join(tmpdir(), "matrix-export-"));
  try {
    writeFileSync(join(folder, "creators.txt"), "creator\n");
    const args = ["export", "--platform", "shortvideo", "--creators", join(folder, "creators.txt"), "--out", join(folder, "out")];
    const child = spawn(process.execPath, [bin("cli"), ...args, "--base-url", stalled, "--timeout-ms", "1000", "--max-retries", "0", "--json"], { env });
    let stdout = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.resume();
    const code = await new Promise((resolve) => child.on("exit", resolve));
    return { code, timedOut: /"TIMEOUT"/.test(stdout) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

await run("MCP tool call, a stalled upstream", async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin("mcp"), "--base-url", stalled, "--max-credits", "10", "--allow", "shortvideoProfile", "--timeout-ms", "1000"],
    env,
    stderr: "ignore",
  });
  const client = new Client({ name: "matrix", version: "1.0.0" });
  await client.connect(transport);
  try {
    const started = Date.now();
    const result = await client.callTool({ name: "shortvideoProfile", arguments: { username: "creator" } }, undefined, { timeout: 30_000 });
    const [first] = /** @type {Array<{ text?: string }>} */ (result.content);
    const { error } = JSON.parse(first?.text ?? "{}");
    return { isError: result.isError === true, kind: error?.kind, callMs: Date.now() - started };
  } finally {
    await client.close();
  }
});

console.log(JSON.stringify(results));
