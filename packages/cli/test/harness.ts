import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type RunningMock, startMock } from "@content-scraper/mock";
import type { ExportLine, Manifest } from "../src/index.js";

export const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
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
export function spawnCli(args: string[], env: Record<string, string | undefined> = {}): ChildProcess & { result: Promise<CliResult> } {
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
  return Object.assign(child, { result });
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
  const files = (await readdir(join(out, platformName))).filter((name) => name.endsWith(".jsonl"));
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
