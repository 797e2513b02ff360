import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type RunningMock, startMock } from "@content-scraper/mock";
import type { ExportLine, Manifest } from "../src/index.js";

/** The built bin, or another build's (`CONTENT_SCRAPER_CLI_BIN`: to see a test fail against the code before a fix). */
export const bin = process.env.CONTENT_SCRAPER_CLI_BIN ?? fileURLToPath(new URL("../dist/bin.js", import.meta.url));
export const apiKey = "scrape_live_cli_tests";
export const platform = "shortvideo";
/** High enough that neither the sandbox's bucket nor the client's pacing slows a test down. */
export const fastRate = 100_000;

/** A sandbox with its rate limit raised, for one test file. */
export function startSandbox(seed = "cli-tests"): Promise<RunningMock> {
  return startMock({ port: 0, seed, requestsPerMinute: fastRate });
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts the built bin as a child process (in a process group of its own, so a test can kill it and its workers). */
export function spawnCli(args: string[], env: Record<string, string | undefined> = {}): ChildProcess & { result: Promise<CliResult>; stderrSoFar(): string } {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, SCRAPER_API_KEY: apiKey, SCRAPER_BASE_URL: undefined, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk) => {
    stdout += String(chunk);
  });
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const result = once(child, "close").then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null, stdout, stderr }));
  return Object.assign(child, { result, stderrSoFar: () => stderr });
}

export function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return spawnCli(args, env).result;
}

export async function tempDir(): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), "content-scraper-cli-"));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

export async function creatorsFile(dir: string, count: number, prefix = "creator"): Promise<{ path: string; creators: string[] }> {
  const creators = Array.from({ length: count }, (_, index) => `${prefix}.${index}`);
  const path = join(dir, `${prefix}s.txt`);
  await writeFile(path, `# test creators\n${creators.join("\n")}\n`);
  return { path, creators };
}

/** Every line of every creator file of an export, with the post keys that appear more than once. */
export async function readExport(out: string, platformName = platform) {
  const files = (await readdir(join(out, platformName))).filter((name) => name.endsWith(".jsonl") && !name.startsWith("."));
  const lines: ExportLine[] = [];
  const perFile = new Map<string, ExportLine[]>();
  for (const file of files) {
    const text = await readFile(join(out, platformName, file), "utf8");
    const parsed = text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as ExportLine);
    perFile.set(file, parsed);
    lines.push(...parsed);
  }
  const counts = new Map<string, number>();
  for (const line of lines) if (line.kind === "post") counts.set(`${line.post.platform}:${line.post.id}`, (counts.get(`${line.post.platform}:${line.post.id}`) ?? 0) + 1);
  const duplicates = [...counts].filter(([, count]) => count > 1).map(([key]) => key);
  const profiles = lines.filter((line) => line.kind === "profile").length;
  return { files: perFile, posts: counts.size, duplicates, profiles };
}

export async function readManifest(out: string, platformName = platform): Promise<Manifest> {
  return JSON.parse(await readFile(join(out, platformName, "manifest.json"), "utf8")) as Manifest;
}

/** The sandbox's own account of what it charged: every answer's credits, and how many posts pages it served. */
export async function ledger(mock: RunningMock) {
  const entries = await mock.log({ surface: "scraper" });
  return {
    credits: entries.reduce((sum, entry) => sum + (entry.creditsCharged ?? 0), 0),
    postsPages: entries.filter((entry) => entry.operation === `${platform}Posts` && entry.status === 200).length,
    requests: entries.length,
  };
}

export const exportArgs = (mock: RunningMock, creators: string, out: string, extra: string[] = []) => [
  "export",
  "--platform",
  platform,
  "--creators",
  creators,
  "--out",
  out,
  "--base-url",
  mock.baseUrls.scraper,
  "--requests-per-minute",
  String(fastRate),
  ...extra,
];

/** How long the sandbox holds an answer that a test holds (sandbox time: `release` ends the wait at once). */
const holdSeconds = 600;

/**
 * Holds the next `count` requests of `operation` in the sandbox and waits until every one of them is held: a fault
 * that lands at a known point (a test kills while the answers are held, then `release`s them), never by timing.
 */
export async function holdRequests(mock: RunningMock, count: number, operation = `${platform}Posts`): Promise<void> {
  await mock.inject({ operation, latencySeconds: holdSeconds, count });
}

/** Waits until the requests `holdRequests` asked for are all held (every one has reached the sandbox). */
export async function untilHeld(mock: RunningMock, operation = `${platform}Posts`): Promise<void> {
  while ((await mock.faults()).some((fault) => fault.operation === operation)) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Ends every held wait: the sandbox answers (and charges) the held requests, to whoever is still listening. */
export async function release(mock: RunningMock): Promise<void> {
  await mock.advance(holdSeconds);
}

/**
 * Runs an export of `args` whose next request is a profile, and SIGKILLs it while the sandbox holds that profile; then
 * the sandbox answers it: charged, its answer lost with the run.
 */
export async function killWithProfileHeld(mock: RunningMock, args: string[]): Promise<void> {
  await holdRequests(mock, 1, `${platform}Profile`);
  const killed = spawnCli(args);
  await untilHeld(mock, `${platform}Profile`);
  process.kill(-(killed.pid as number), "SIGKILL");
  await killed.result;
  await release(mock);
}

/**
 * A kill whose loss no later answer of its own reports: an export of one creator completes, the list grows by one
 * creator, the run asking for that creator's profile is killed with it held (and charged), and the next profile answer
 * is a refunded failure (502). Answers the grown list and the output folder, for the run that follows.
 */
export async function killThenFailNextProfile(mock: RunningMock, dir: string, name: string): Promise<{ path: string; out: string }> {
  const out = `${dir}/${name}`;
  const first = await creatorsFile(dir, 1, name);
  const exported = await runCli(exportArgs(mock, first.path, out));
  if (exported.code !== 0) throw new Error(`the first export exited ${exported.code}: ${exported.stderr}`);
  const path = `${dir}/${name}-both.txt`;
  await writeFile(path, `${first.creators[0]}\n${name}.new\n`);
  await killWithProfileHeld(mock, exportArgs(mock, path, out));
  await mock.inject({ operation: `${platform}Profile`, status: 502, count: 1 });
  return { path, out };
}

/** How many times runs on `out` learnt the balance (the points of its runs journal). */
export async function pointsIn(out: string): Promise<number> {
  return ((await readFile(join(out, platform, ".runs.jsonl"), "utf8").catch(() => "")).match(/"point"/g) ?? []).length;
}

/**
 * Waits until the run started on `out` after `before` points has learnt the balance it starts from: past that first
 * answer, which a run waits for alone, its creators work at full concurrency. Answers false if `done()` (the run
 * ended) comes first.
 */
export async function untilPastFirstAnswer(out: string, before: number, done: () => boolean): Promise<boolean> {
  await eventually(async () => done() || (await pointsIn(out)) > before, 60_000);
  return !done();
}

/** The post ids of each creator's file. */
export async function postsByFile(out: string) {
  const { files } = await readExport(out);
  return new Map([...files].map(([file, lines]) => [file, lines.flatMap((line) => (line.kind === "post" ? [line.post.id] : [])).sort()]));
}

/** Whether a process is alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until `check` holds (polling), for at most `limitMs`: answers whether it did. */
export async function eventually(check: () => boolean | Promise<boolean>, limitMs = 20_000): Promise<boolean> {
  const until = Date.now() + limitMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

/** The processes a process forked (a coordinator's workers). */
export function workersOf(pid: number): number[] {
  try {
    const output = execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" });
    return output.split("\n").map((line) => Number(line.trim())).filter((value) => value > 0);
  } catch {
    // ps exits 1 when it finds none.
    return [];
  }
}
