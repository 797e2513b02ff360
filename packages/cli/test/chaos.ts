import { writeFile } from "node:fs/promises";
import type { RunningMock } from "@content-scraper/mock";
import type { startRedis } from "@content-scraper/test-server/redis";
import {
  alive,
  type CliResult,
  eventually,
  exportArgs,
  platform,
  postsByFile,
  readExport,
  readManifest,
  release,
  runCli,
  spawnCli,
  untilPastFirstAnswer,
  pointsIn,
  workersOf,
} from "./harness.js";

// The chaos of a whole catalog job, seeded: runs on a laptop and on a fleet, one after another on one folder, each
// hit by a fault that lands at a known point (answers held by the sandbox while the fault strikes, then released):
// SIGKILL of the run, of a coordinator alone, of one worker; Redis restarted empty; a second run on the same folder;
// Ctrl-C; refunded failures and latency injected. Then runs without faults until the export is complete, and the
// result is held against an uninterrupted export and the sandbox's ledger.

/** A small seeded random generator (mulberry32): the same seed, the same schedule of faults. */
export function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)), pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T };
}

export interface ChaosWorld {
  mock: RunningMock;
  redis: Awaited<ReturnType<typeof startRedis>>;
  creators: string;
  /** The uninterrupted export's files, and the answers it took. */
  reference: { files: Map<string, string[]>; postsPages: number; profiles: number };
  dir: string;
}

/** What one seeded chaos run did, and what it found. */
export interface ChaosReport {
  seed: number;
  steps: string[];
  kills: number;
  redisRestarts: number;
  overlaps: number;
  interrupts: number;
  /** Faults and latencies injected in the sandbox. */
  sandboxFaults: number;
  /** Requests in flight at the kills (and Redis restarts): the most pages and profiles that may be paid twice. */
  inFlightAtFaults: number;
  /** Pages and profiles the sandbox served beyond the uninterrupted export (balance checks apart). */
  paidTwice: number;
  duplicates: number;
  lost: number;
  manifestCredits: number;
  ledgerCredits: number;
  unreconciledRuns: number;
  runsAwaitingBalance: number;
  finalRuns: number;
}

const faultKinds = ["kill", "kill", "coordinator", "worker", "redis", "overlap", "interrupt", "failures"] as const;

/** How long a held answer waits (sandbox time); `release` ends it. */
const holdSeconds = 600;

/**
 * Takes the holds no run reached (fewer creators were left than slots) with requests of another key, so that no run
 * meets one later: one at a time until none is left (a request may take another fault queued before them). They stay
 * held until the next `release`; answers their request ids, which the chaos run's ledger leaves out.
 */
async function takeHolds(mock: RunningMock): Promise<Promise<string>[]> {
  const holds = async () => (await mock.faults()).filter((fault) => fault.latencySeconds === holdSeconds).reduce((sum, fault) => sum + fault.remaining, 0);
  const answers: Promise<string>[] = [];
  for (let left = await holds(); left > 0; left = await holds()) {
    let answered = false;
    answers.push(
      fetch(`${mock.baseUrls.scraper}/scrape/${platform}/posts`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": "scrape_live_chaos_drain" },
        body: JSON.stringify({ username: "drain" }),
      }).then(async (response) => {
        answered = true;
        return ((await response.json()) as { request_id: string }).request_id;
      }),
    );
    await eventually(async () => answered || (await holds()) < left);
  }
  return answers;
}

/** Takes the holds left, releases everything held, and answers the drains' request ids. */
async function drainHolds(mock: RunningMock): Promise<string[]> {
  const answers = await takeHolds(mock);
  await release(mock);
  return Promise.all(answers);
}

/**
 * Waits until every slot's page is held, or until the run is blocked on the ones that are (fewer creators were left
 * than slots: nothing more is answered for 2 s while some are held). Answers whether any is held.
 */
async function untilBlocked(mock: RunningMock, slots: number): Promise<boolean> {
  let answers = -1;
  let since = Date.now();
  for (;;) {
    const left = (await mock.faults()).filter((fault) => fault.latencySeconds === holdSeconds).reduce((sum, fault) => sum + fault.remaining, 0);
    if (left === 0) return true;
    const now = (await mock.log()).length;
    if (now !== answers) [answers, since] = [now, Date.now()];
    else if (left < slots && Date.now() - since > 2_000) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The sandbox's ledger of the chaos run: every answer but the drains'. */
async function chaosLedger(mock: RunningMock, drained: Set<string>) {
  const entries = (await mock.log({ surface: "scraper" })).filter((entry) => entry.requestId === null || !drained.has(entry.requestId));
  return {
    credits: entries.reduce((sum, entry) => sum + (entry.creditsCharged ?? 0), 0),
    postsPages: entries.filter((entry) => entry.operation === `${platform}Posts` && entry.status === 200).length,
    // Profiles answered with a charge: a success, or a billed not-found.
    profiles: entries.filter((entry) => entry.operation === `${platform}Profile` && (entry.creditsCharged ?? 0) > 0).length,
  };
}

/** One seeded chaos run on a fresh folder; answers its report (the caller asserts on it). */
export async function chaosRun(world: ChaosWorld, seed: number): Promise<ChaosReport> {
  // Whatever an earlier run left held is answered before the sandbox starts over.
  await release(world.mock);
  await world.mock.reset();
  const spawned: ReturnType<typeof spawnCli>[] = [];
  try {
    return await chaosSteps(world, seed, spawned);
  } finally {
    for (const child of spawned) if (child.exitCode === null && child.signalCode === null) process.kill(-(child.pid as number), "SIGKILL");
  }
}

async function chaosSteps(world: ChaosWorld, seed: number, spawned: ReturnType<typeof spawnCli>[]): Promise<ChaosReport> {
  const { mock, redis } = world;
  const rng = random(seed);
  const out = `${world.dir}/chaos-${seed}`;
  const drained = new Set<string>();
  const report: ChaosReport = {
    seed,
    steps: [],
    kills: 0,
    redisRestarts: 0,
    overlaps: 0,
    interrupts: 0,
    sandboxFaults: 0,
    inFlightAtFaults: 0,
    paidTwice: 0,
    duplicates: 0,
    lost: 0,
    manifestCredits: 0,
    ledgerCredits: 0,
    unreconciledRuns: 0,
    runsAwaitingBalance: 0,
    finalRuns: 0,
  };
  const say = (line: string) => {
    report.steps.push(line);
    if (process.env.CHAOS_VERBOSE) console.error(`seed ${seed} at ${new Date().toISOString()}: ${line}`);
  };
  const shape = () => {
    const fleet = rng.next() < 0.5;
    const concurrency = rng.int(1, 3);
    const workers = fleet ? rng.int(1, 3) : 1;
    const extra = ["--concurrency", String(concurrency), "--max-retries", "0"];
    // A lease long enough that a worker starved of CPU (a 2-core machine running every suite) still renews it: one
    // that lapses hands a live worker's creator to another, which pays its page again, a fault no step injected.
    if (fleet) extra.push("--redis", redis.url, "--workers", String(workers), "--lease-seconds", "8");
    return { fleet, slots: concurrency * workers, concurrency, workers: fleet ? workers : 0, args: exportArgs(mock, world.creators, out, extra) };
  };
  // Latency on some answers, as a slow upstream: it moves where the other faults land, never what the export holds.
  if (rng.next() < 0.5) {
    await mock.inject({ operation: `${platform}Posts`, latencySeconds: 0.02, count: rng.int(5, 30) });
    report.sandboxFaults++;
  }

  for (let step = rng.int(2, 4); step > 0; step--) {
    const run = shape();
    let kind: (typeof faultKinds)[number] = rng.pick(faultKinds);
    if (!run.fleet && (kind === "coordinator" || kind === "worker" || kind === "redis")) kind = "kill";
    say(`${kind} (${run.fleet ? "fleet" : "laptop"}, ${run.slots} at once)`);
    if (kind === "failures") {
      // Refunded failures the client gives up on (--max-retries 0): the creators fail for now; later runs retry them.
      await mock.inject({ operation: rng.pick([`${platform}Profile`, `${platform}Posts`]), status: 502, count: rng.int(1, 3) });
      report.sandboxFaults++;
      await runCli(run.args);
      continue;
    }
    const points = await pointsIn(out);
    const child = spawnCli(run.args);
    spawned.push(child);
    let exited = false;
    void child.result.then(() => {
      exited = true;
    });
    // Past the run's first answer, which it waits for alone (its balance), and its workers up: then every slot's next
    // page is held, and the fault strikes with exactly those in flight (unless the run ends on its own first).
    await untilPastFirstAnswer(out, points, () => exited);
    await eventually(() => exited || workersOf(child.pid as number).length === run.workers, 60_000);
    await mock.inject({ operation: `${platform}Posts`, latencySeconds: holdSeconds, count: run.slots });
    const held = await Promise.race([untilBlocked(mock, run.slots), child.result.then(() => false)]);
    if (!held) {
      say(`→ exit ${(await child.result).code} before the fault`);
      for (const id of await drainHolds(mock)) drained.add(id);
      continue;
    }
    // The holds no creator reached are taken now: after the fault, no page of this run may meet one.
    const drains = await takeHolds(mock);
    let result: CliResult;
    if (kind === "kill" || kind === "coordinator") {
      const workers = workersOf(child.pid as number);
      process.kill(kind === "kill" ? -(child.pid as number) : (child.pid as number), "SIGKILL");
      await child.result;
      // Workers die with their coordinator.
      if (!(await eventually(() => workers.every((pid) => !alive(pid)), 15_000))) throw new Error(`seed ${seed}: workers outlived their coordinator`);
      report.kills++;
      report.inFlightAtFaults += run.slots;
      await release(mock);
      for (const id of await Promise.all(drains)) drained.add(id);
      continue;
    }
    if (kind === "worker") {
      const [victim] = workersOf(child.pid as number);
      process.kill(victim as number, "SIGKILL");
      await eventually(() => !alive(victim as number));
      report.kills++;
      report.inFlightAtFaults += run.concurrency;
      await release(mock);
      result = await child.result;
    } else if (kind === "redis") {
      await redis.kill();
      await eventually(() => /unreachable/.test(child.stderrSoFar()));
      await redis.start();
      result = await child.result;
      report.redisRestarts++;
      report.inFlightAtFaults += run.slots;
      await release(mock);
      if (result.code !== 4) throw new Error(`seed ${seed}: a Redis restart ended the run with ${result.code}:\n${result.stderr}`);
    } else if (kind === "overlap") {
      const second = await runCli(shape().args);
      report.overlaps++;
      if (second.code !== 2) throw new Error(`seed ${seed}: an overlapping run was not refused (${second.code}):\n${second.stderr}`);
      await release(mock);
      result = await child.result;
    } else {
      child.kill("SIGINT");
      report.interrupts++;
      await release(mock);
      result = await child.result;
    }
    say(`→ exit ${result.code}`);
    if (process.env.CHAOS_VERBOSE) console.error(result.stderr, await unfinished(out));
    for (const id of await Promise.all(drains)) drained.add(id);
  }
  for (const id of await drainHolds(mock)) drained.add(id);

  // Runs without faults until the export is complete.
  let manifest = await readManifest(out).catch(() => undefined);
  for (let attempt = 0; attempt < 4 && !(manifest?.stoppedBecause === "complete" && manifest.creators.pending + manifest.creators.stopped === 0 && manifest.creators.failed <= 1); attempt++) {
    report.finalRuns++;
    const final = await runCli(shape().args);
    manifest = await readManifest(out);
    say(`final → exit ${final.code}`);
  }
  if (!manifest) throw new Error(`seed ${seed}: no manifest`);
  const exported = await readExport(out);
  const files = await postsByFile(out);
  report.duplicates = exported.duplicates.length;
  for (const [file, ids] of world.reference.files) {
    const have = new Set(files.get(file) ?? []);
    report.lost += ids.filter((id) => !have.has(id)).length;
  }
  const sandbox = await chaosLedger(mock, drained);
  report.manifestCredits = manifest.creditsCharged;
  report.ledgerCredits = sandbox.credits;
  report.unreconciledRuns = manifest.unreconciledRuns;
  report.runsAwaitingBalance = manifest.runsAwaitingBalance;
  report.paidTwice = sandbox.postsPages - world.reference.postsPages + (sandbox.profiles - manifest.creditsProbing - world.reference.profiles);
  return report;
}

/** The checkpoints of the creators not done (for CHAOS_VERBOSE). */
async function unfinished(out: string): Promise<string> {
  const { readdir, readFile } = await import("node:fs/promises");
  const folder = `${out}/${platform}/.checkpoints`;
  const states: string[] = [];
  for (const name of await readdir(folder).catch(() => [])) {
    // A journal of JSON lines: the last whole one is the checkpoint.
    const checkpoint = JSON.parse((await readFile(`${folder}/${name}`, "utf8")).trimEnd().split("\n").at(-1) as string);
    if (checkpoint.status !== "done") states.push(`${checkpoint.creator}: ${checkpoint.status} ${checkpoint.stoppedBecause} after ${checkpoint.pages} pages`);
  }
  return states.join("\n");
}

/** Writes the reports as JSON lines (the chaos script's record). */
export async function saveReports(path: string, reports: ChaosReport[]): Promise<void> {
  await writeFile(path, reports.map((report) => `${JSON.stringify(report)}\n`).join(""));
}
