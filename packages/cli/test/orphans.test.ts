// A fleet's coordinator killed as its workers start (issue #39): the workers must not outlive it, and whatever runs the
// export next on the same folder, a laptop run or a fleet, must end with every post once and the manifest equal to the
// sandbox's ledger. A worker the laptop run cannot reach (one joined from another machine: no IPC channel to close)
// is fenced by the folder's lock, which the laptop run takes.
import { setTimeout as sleep } from "node:timers/promises";
import { beforeAll, describe, expect, test } from "vitest";
import { random } from "./chaos.js";
import {
  alive,
  creatorsFile,
  eventually,
  exportArgs,
  fastRate,
  ledger,
  platform,
  postsByFile,
  readExport,
  readManifest,
  runCli,
  spawnCli,
  untilHeld,
  workersOf,
} from "./harness.js";
import { fleetWorld } from "./world.js";

const world = fleetWorld("orphans");
const { fleetArgs } = world;

// `pnpm test` runs a few seeds; ORPHAN_RUNS=20 (and ORPHAN_FIRST_SEED) runs the issue's measure.
const runs = Number(process.env.ORPHAN_RUNS ?? 1);
const first = Number(process.env.ORPHAN_FIRST_SEED ?? 1);
const seeds = Array.from({ length: runs }, (_, index) => first + index);

let creators: string;
let clean: Awaited<ReturnType<typeof world.uninterrupted>>;
beforeAll(async () => {
  creators = (await creatorsFile(world.dir.path, 16, "orphan")).path;
  clean = await world.uninterrupted(creators, "orphans");
});

/** Where a seed kills the coordinator, once its workers are forked. */
const stages = [
  // At once: the workers are still loading, and find their channel closed when they start.
  "loading",
  // With Redis frozen: the workers wait on it to join the run, and the channel closes meanwhile.
  "joining",
  // After a seeded 0-1,500 ms: anywhere in the workers' start, or in their first jobs.
  "delay",
] as const;

/** Every post of the uninterrupted export once, and the manifest's credits the ledger's, to the credit. */
async function expectWhole(out: string, context: string) {
  const manifest = await readManifest(out);
  expect(manifest.creators.done, context).toBe(manifest.creators.total);
  expect((await readExport(out)).duplicates, context).toEqual([]);
  expect(await postsByFile(out), context).toEqual(clean.files);
  expect(manifest.creditsCharged, context).toBe((await ledger(world.mock)).credits);
  expect([manifest.unreconciledRuns, manifest.runsAwaitingBalance], context).toEqual([0, 0]);
}

describe("a coordinator killed as its workers start", () => {
  test.each(seeds)("seed %i: its workers leave at once; a laptop rerun and a fleet rerun, in the seed's order, end whole with manifest = ledger", async (seed) => {
    const rng = random(seed);
    // Every stage in any three seeds in a row; the delay and the order of the reruns from the seed.
    const stage = stages[(seed - 1) % stages.length] as (typeof stages)[number];
    const delay = rng.int(0, 1500);
    const reruns = rng.next() < 0.5 ? (["laptop", "fleet"] as const) : (["fleet", "laptop"] as const);
    const context = `seed ${seed}: killed ${stage === "delay" ? `${delay} ms after forking` : `while its workers were ${stage}`}, then ${reruns.join(", then ")}`;
    await world.mock.reset();
    const out = `${world.dir.path}/orphans-${seed}`;
    const coordinator = spawnCli(exportArgs(world.mock, creators, out, fleetArgs(2, 2)));
    const pid = coordinator.pid as number;
    expect(await eventually(() => workersOf(pid).length === 2 || coordinator.exitCode !== null, 60_000), context).toBe(true);
    const workers = workersOf(pid);
    expect(workers, context).toHaveLength(2);
    if (stage === "joining") world.redis.freeze();
    if (stage === "delay") await sleep(delay);
    try {
      // The coordinator alone, as a crash or the OOM killer takes it: its workers are left to notice.
      if (coordinator.exitCode === null) process.kill(pid, "SIGKILL");
    } catch {}
    world.redis.thaw();
    // Its exit, not the close of its output: the workers hold its stderr for as long as they live.
    await eventually(() => coordinator.exitCode !== null || coordinator.signalCode !== null);
    // Without the check of the channel, a worker killed in its start ran for the coordinator's heartbeat (30 s).
    expect(await eventually(() => workers.every((worker) => !alive(worker)), 10_000), `${context}: workers outlived their coordinator`).toBe(true);

    for (const rerun of reruns) {
      const requests = (await ledger(world.mock)).requests;
      const result = await runCli(exportArgs(world.mock, creators, out, rerun === "fleet" ? fleetArgs(2, 2) : ["--concurrency", "4"]));
      expect(result.code, `${context}: ${rerun} rerun\n${result.stderr}`).toBe(0);
      await expectWhole(out, `${context}, after the ${rerun} rerun`);
      // The second rerun finds the export whole: it sends nothing.
      if (rerun === reruns[1]) expect((await ledger(world.mock)).requests, context).toBe(requests);
    }
  });
});

describe("a worker the coordinator's death cannot reach", () => {
  test("a worker joined as from another machine is fenced by the lock a laptop run takes: its held page is not written, it buys nothing more, and leaves", async () => {
    await world.mock.reset();
    const { path } = await creatorsFile(world.dir.path, 4, "fenced");
    const out = `${world.dir.path}/fenced`;
    const reference = await world.uninterrupted(path, "fenced");
    // The worker's first page is held (the coordinator itself asks only for the first profile, alone).
    await world.mock.inject({ operation: `${platform}Posts`, latencySeconds: 600, count: 1 });
    const coordinator = spawnCli(exportArgs(world.mock, path, out, ["--redis", world.redis.url, "--workers", "0", "--concurrency", "1", "--lease-seconds", "2"]));
    expect(await eventually(() => /fleet export [0-9a-f]{16}/.test(coordinator.stderrSoFar()))).toBe(true);
    const id = /fleet export ([0-9a-f]{16})/.exec(coordinator.stderrSoFar())?.[1] as string;
    const worker = spawnCli(["worker", "--export", id, "--out", out, "--base-url", world.mock.baseUrls.scraper, "--requests-per-minute", String(fastRate)], {
      CONTENT_SCRAPER_REDIS_URL: world.redis.url,
    });
    await untilHeld(world.mock);
    process.kill(-(coordinator.pid as number), "SIGKILL");
    await coordinator.result;

    // The laptop run takes the dead coordinator's lock; its own first page is held longer than the worker's.
    await world.mock.inject({ operation: `${platform}Posts`, latencySeconds: 1200, count: 1 });
    const laptop = spawnCli(exportArgs(world.mock, path, out, ["--concurrency", "1"]));
    await untilHeld(world.mock);
    // The worker's answer comes (its claim and its epoch in Redis still hold): the lock on disk refuses its write.
    await world.mock.advance(600);
    const fenced = await worker.result;
    expect(fenced.code, fenced.stderr).toBe(4);
    expect(fenced.stderr).toMatch(/is no longer this export's \(its lock is another run's, or gone\): another run took it over/);
    await world.mock.advance(600);
    const result = await laptop.result;
    expect(result.code, result.stderr).toBe(0);

    expect((await readExport(out)).duplicates).toEqual([]);
    expect(await postsByFile(out)).toEqual(reference.files);
    const sandbox = await ledger(world.mock);
    // The worker bought its held page, and nothing after it.
    expect(sandbox.postsPages - reference.ledger.postsPages).toBe(1);
    expect(sandbox.requests - reference.ledger.requests).toBe(1);
    const manifest = await readManifest(out);
    expect([manifest.creditsUnseen, manifest.unreconciledRuns]).toEqual([1, 0]);
    expect(manifest.creditsCharged).toBe(sandbox.credits);

    // A fleet rerun finds it whole and sends nothing.
    expect((await runCli(exportArgs(world.mock, path, out, fleetArgs(1, 1)))).code).toBe(0);
    expect((await ledger(world.mock)).requests).toBe(sandbox.requests);
  });
});
