// pnpm bench: the CLI's export against baselines measured in the same run, on the sandbox.
//  1. 50 creators at --concurrency 8 (sandbox and client pacing raised) vs the client's own walkPosts loop over the
//     same creators writing the same JSON lines, each in a process of its own (target ≤ 1.05×, median of the ratios of
//     21 rounds);
//  2. resume: 200 creators, the export killed with SIGKILL three times at random moments, then run to the end: zero
//     duplicate posts, and the manifest's credits against the sandbox's ledger.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { startMock } from "@content-scraper/mock";

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const walkLoop = fileURLToPath(new URL("./walk-loop.mjs", import.meta.url));
const apiKey = "scrape_live_cli_bench";
const rpm = 1_000_000;
const results = [];
const report = (name, value, target, pass) => results.push({ name, value, target, pass });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function run(script, args) {
  const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, SCRAPER_API_KEY: apiKey }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += String(chunk);
  });
  child.done = once(child, "close").then(([code]) => ({ code, stderr }));
  return child;
}

async function timed(script, args) {
  const started = performance.now();
  const { code, stderr } = await run(script, args).done;
  if (code !== 0) throw new Error(`${script} ${args.join(" ")} exited ${code}: ${stderr}`);
  return performance.now() - started;
}

async function creatorsFile(dir, count, prefix) {
  const path = join(dir, `${prefix}.txt`);
  await writeFile(path, `${Array.from({ length: count }, (_, index) => `${prefix}.${index}`).join("\n")}\n`);
  return path;
}

const exportArgs = (mock, creators, out, concurrency) =>
  ["export", "--platform", "shortvideo", "--creators", creators, "--out", out, "--base-url", mock.baseUrls.scraper, "--requests-per-minute", String(rpm), "--concurrency", String(concurrency)];

async function singleMachine(dir) {
  const mock = await startMock({ port: 0, seed: "bench", requestsPerMinute: rpm });
  try {
    const creators = await creatorsFile(dir, 50, "fifty");
    const cli = [];
    const loop = [];
    // Each round's ratio compares two runs made moments apart, the one that goes first alternating, so drift in the
    // machine's speed hits both alike; the median of the rounds' ratios is the figure.
    for (let round = 0; round < 21; round++) {
      const runLoop = async () => loop.push(await timed(walkLoop, [mock.baseUrls.scraper, creators, "8", String(rpm), join(dir, `loop-${round}`)]));
      const runCli = async () => cli.push(await timed(bin, exportArgs(mock, creators, join(dir, `fifty-${round}`), 8)));
      for (const arm of round % 2 === 0 ? [runLoop, runCli] : [runCli, runLoop]) await arm();
    }
    const ratio = median(cli.map((time, round) => time / loop[round]));
    report("export of 50 creators, --concurrency 8: CLI ÷ walkPosts loop writing JSONL", `${ratio.toFixed(2)}× (${median(cli).toFixed(0)} ms vs ${median(loop).toFixed(0)} ms)`, "≤ 1.05×", ratio <= 1.05);
  } finally {
    await mock.close();
  }
}

async function resume(dir) {
  const mock = await startMock({ port: 0, seed: "bench", requestsPerMinute: rpm });
  try {
    const creators = await creatorsFile(dir, 200, "killed");
    const out = join(dir, "killed");
    // Pages that take 20 ms stretch the export over a few seconds, so each kill lands in the middle of it.
    await mock.inject({ operation: "shortvideoPosts", latencySeconds: 0.02, count: 100_000 });
    const kills = [];
    for (let kill = 0; kill < 3; kill++) {
      const before = (await mock.log()).length;
      const child = run(bin, exportArgs(mock, creators, out, 8));
      while ((await mock.log()).length === before && child.exitCode === null) await sleep(10);
      // A run that fails before its first request would leave this waiting forever: its stderr says why.
      if (child.exitCode !== null && child.exitCode !== 0) throw new Error(`the export exited ${child.exitCode}: ${(await child.done).stderr}`);
      const delay = Math.floor(100 + Math.random() * 1000);
      kills.push(delay);
      await sleep(delay);
      // An export that already finished has nothing left to kill: the next run only checks it.
      if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
      await child.done;
    }
    const { code, stderr } = await run(bin, exportArgs(mock, creators, out, 8)).done;
    if (code !== 0) throw new Error(`the resumed export exited ${code}: ${stderr}`);
    const manifest = JSON.parse(await readFile(join(out, "shortvideo", "manifest.json"), "utf8"));
    const ledger = (await mock.log({ surface: "scraper" })).reduce((sum, entry) => sum + (entry.creditsCharged ?? 0), 0);
    const seen = new Map();
    for (const file of (await readdir(join(out, "shortvideo"))).filter((name) => name.endsWith(".jsonl") && !name.startsWith("."))) {
      for (const line of (await readFile(join(out, "shortvideo", file), "utf8")).split("\n")) {
        if (line === "") continue;
        const parsed = JSON.parse(line);
        if (parsed.kind === "post") seen.set(`${parsed.post.platform}:${parsed.post.id}`, (seen.get(`${parsed.post.platform}:${parsed.post.id}`) ?? 0) + 1);
      }
    }
    const duplicates = [...seen.values()].filter((count) => count > 1).length;
    report(`resume: 200 creators, SIGKILL after ${kills.join(", ")} ms: duplicate posts`, String(duplicates), "0", duplicates === 0);
    report(
      "resume: manifest credits vs sandbox ledger",
      `${manifest.creditsCharged} vs ${ledger} (${manifest.creditsUnseen} of them for answers lost to the kills, found from the balance; ${manifest.resumedMidPage} creators resumed mid-page)`,
      "equal",
      manifest.creditsCharged === ledger && manifest.unreconciledRuns === 0 && manifest.creators.done === 200,
    );
  } finally {
    await mock.close();
  }
}

const dir = await mkdtemp(join(tmpdir(), "content-scraper-cli-bench-"));
try {
  await singleMachine(dir);
  await resume(dir);
} finally {
  await rm(dir, { recursive: true, force: true });
}
console.table(results.map(({ name, value, target, pass }) => ({ measure: name, value, target, met: pass ? "yes" : "NO" })));
if (results.some((result) => !result.pass)) {
  console.error("a benchmark target was missed");
  process.exitCode = 1;
}
