import { describe, expect, test } from "vitest";
import {
  apiKey,
  creatorsFile,
  eventually,
  exportArgs,
  holdRequests,
  killThenFailNextProfile,
  killWithProfileHeld,
  ledger,
  platform,
  postsByFile,
  readExport,
  readManifest,
  release,
  runCli,
  spawnCli,
  untilHeld,
  untilPastFirstAnswer,
  pointsIn,
} from "./harness.js";
import { sandboxWorld } from "./world.js";

const world = sandboxWorld("resume");

describe("resuming an export", () => {
  test("killed with SIGKILL three times, each time with every creator's page in flight: every post once, every credit accounted for", async () => {
    const { path, creators } = await creatorsFile(world.dir.path, 60, "killed");
    const out = `${world.dir.path}/killed`;
    for (let kill = 0; kill < 3; kill++) {
      const before = await pointsIn(out);
      const child = spawnCli(exportArgs(world.mock, path, out, ["--concurrency", "6"]));
      // Past the answer the run waits for alone (the balance it starts from), all six creators' next pages are held:
      // the kill lands with exactly those six in flight.
      await untilPastFirstAnswer(out, before, () => child.exitCode !== null);
      await holdRequests(world.mock, 6);
      await untilHeld(world.mock);
      process.kill(-(child.pid as number), "SIGKILL");
      await child.result;
      // The sandbox answers them, and charges them: their answers are lost with the run.
      await release(world.mock);
    }
    const last = await runCli(exportArgs(world.mock, path, out, ["--concurrency", "6"]));
    expect(last.code, last.stderr).toBe(0);

    const whole = `${world.dir.path}/whole`;
    expect((await runCli(exportArgs(world.reference, path, whole, ["--concurrency", "6"]))).code).toBe(0);
    const exported = await readExport(out);
    expect(exported.duplicates).toEqual([]);
    expect(exported.profiles).toBe(creators.length);
    expect(await postsByFile(out)).toEqual(await postsByFile(whole));

    const manifest = await readManifest(out);
    const sandbox = await ledger(world.mock);
    const uninterrupted = await ledger(world.reference);
    expect(manifest.creators.done).toBe(creators.length);
    // Each kill left six creators mid-page; each was resumed, its lost page fetched once more.
    expect(manifest.resumedMidPage).toBe(18);
    expect(sandbox.postsPages - uninterrupted.postsPages).toBe(18);
    // Every credit is accounted for: the answers received, and the eighteen the kills lost in flight (the sandbox
    // charged them, the export never saw them), found from the balance each run starts from.
    expect(manifest.unreconciledRuns).toBe(0);
    expect(manifest.creditsUnseen).toBe(18);
    expect(manifest.creditsCharged).toBe(sandbox.credits);
    expect(manifest.creditsCharged - manifest.creditsUnseen).toBe(uninterrupted.credits);
  });

  test("Ctrl-C (SIGINT) finishes the pages in flight, checkpoints, exits 130; the rerun continues with exact accounting", async () => {
    await world.mock.reset();
    const { path, creators } = await creatorsFile(world.dir.path, 40, "interrupted");
    const out = `${world.dir.path}/interrupted`;
    const child = spawnCli(exportArgs(world.mock, path, out, ["--concurrency", "4"]));
    // Ctrl-C while all four creators' pages are held: they finish once released, and nothing more is asked.
    await untilPastFirstAnswer(out, 0, () => child.exitCode !== null);
    await holdRequests(world.mock, 4);
    await untilHeld(world.mock);
    child.kill("SIGINT");
    await eventually(() => /SIGINT: finishing the pages in flight/.test(child.stderrSoFar()));
    await release(world.mock);
    const stopped = await child.result;
    expect(stopped.stderr).toMatch(/SIGINT: finishing the pages in flight/);
    expect(stopped.code).toBe(130);
    const partial = await readManifest(out);
    expect(partial.stoppedBecause).toBe("interrupted");
    expect(partial.creators.done).toBeLessThan(creators.length);
    expect(partial.creditsCharged).toBe((await ledger(world.mock)).credits);

    const resumed = await runCli(exportArgs(world.mock, path, out, ["--concurrency", "4"]));
    expect(resumed.code).toBe(0);
    const manifest = await readManifest(out);
    const sandbox = await ledger(world.mock);
    expect(manifest.resumedMidPage).toBe(0);
    expect(manifest.creditsCharged).toBe(sandbox.credits);
    expect(manifest.pages).toBe(sandbox.postsPages);
    expect((await readExport(out)).duplicates).toEqual([]);
  });

  test("a rerun that learns no balance of its own (every answer it had failed) checks it once the export is complete: exact to the credit", async () => {
    await world.mock.reset();
    const { path, out } = await killThenFailNextProfile(world.mock, world.dir.path, "unlearnt");
    // The rerun's one request fails (refunded): it learns no balance, and completes the export with that creator failed.
    const rerun = await runCli(exportArgs(world.mock, path, out, ["--max-retries", "0"]));
    expect(rerun.code, rerun.stderr).toBe(1);
    expect(rerun.stderr).toMatch(/an earlier run was killed with answers in flight, and no run since learnt the balance: 1 credit\(s\) spent on a balance check/);
    const manifest = await readManifest(out);
    expect(manifest.stoppedBecause).toBe("complete");
    expect([manifest.creditsUnseen, manifest.creditsProbing, manifest.runsAwaitingBalance, manifest.unreconciledRuns]).toEqual([1, 1, 0, 0]);
    expect(manifest.creditsCharged).toBe((await ledger(world.mock)).credits);
  });

  test("with no creator done to ask for again, the check is not made and the manifest says the kill's losses await the balance", async () => {
    await world.mock.reset();
    const { path } = await creatorsFile(world.dir.path, 1, "nonedone");
    const out = `${world.dir.path}/nonedone`;
    await killWithProfileHeld(world.mock, exportArgs(world.mock, path, out));
    await world.mock.inject({ operation: `${platform}Profile`, status: 502, count: 1 });
    const rerun = await runCli(exportArgs(world.mock, path, out, ["--max-retries", "0"]));
    expect(rerun.code, rerun.stderr).toBe(1);
    expect(rerun.stderr).toMatch(/no creator is done to ask for again: the next run accounts for them/);
    const manifest = await readManifest(out);
    expect([manifest.stoppedBecause, manifest.runsAwaitingBalance, manifest.creditsProbing]).toEqual(["complete", 1, 0]);
    // The held profile was charged, unseen: the manifest is short by it, and says so.
    expect((await ledger(world.mock)).credits - manifest.creditsCharged).toBe(1);
  });

  test("a kill during the export's first request: the rerun records it unreconciled with its cause, and says the manifest may be 1 credit short", async () => {
    await world.mock.reset();
    const { path } = await creatorsFile(world.dir.path, 3, "firstkill");
    const out = `${world.dir.path}/firstkill`;
    // The export's very first request, held, charged once the run is gone: no balance from before it was ever told.
    await killWithProfileHeld(world.mock, exportArgs(world.mock, path, out));
    const rerun = await runCli(exportArgs(world.mock, path, out));
    expect(rerun.code, rerun.stderr).toBe(0);
    const short = /creditsCharged in the manifest may be short by at most 1 credit\(s\): a run was killed before any run of this export had learnt the balance \(during its first request\)/;
    expect(rerun.stderr).toMatch(short);
    const manifest = await readManifest(out);
    expect([manifest.unreconciledRuns, manifest.unreconciled]).toEqual([1, [{ cause: "noEarlierBalance", creditsAtMost: 1 }]]);
    expect((await ledger(world.mock)).credits - manifest.creditsCharged).toBe(1);
    // Every later run that writes the manifest says so too, while it is short.
    const again = await runCli(exportArgs(world.mock, path, out));
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(short);
  });

  test("a top-up between a kill and the rerun is flagged, not guessed: the balance rose, so what the kill lost is unknown", async () => {
    await world.mock.reset();
    const { path } = await creatorsFile(world.dir.path, 30, "topped");
    const out = `${world.dir.path}/topped`;
    const child = spawnCli(exportArgs(world.mock, path, out, ["--concurrency", "6"]));
    await untilPastFirstAnswer(out, 0, () => child.exitCode !== null);
    await holdRequests(world.mock, 6);
    await untilHeld(world.mock);
    process.kill(-(child.pid as number), "SIGKILL");
    await child.result;
    await release(world.mock);
    await world.mock.setBalance(apiKey, 1_000_000);
    const rerun = await runCli(exportArgs(world.mock, path, out, ["--concurrency", "6"]));
    expect(rerun.code).toBe(0);
    expect(rerun.stderr).toMatch(/may be short by an unknown amount: the balance rose between a killed run and the next/);
    const manifest = await readManifest(out);
    expect(manifest.unreconciledRuns).toBe(1);
    expect(manifest.unreconciled).toEqual([{ cause: "balanceRose", creditsAtMost: null }]);
    expect(manifest.creditsUnseen).toBe(0);
  });
});
