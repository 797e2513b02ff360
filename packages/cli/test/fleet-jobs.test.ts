import { describe, expect, test } from "vitest";
import { fleetWorld } from "./world.js";
import {
  creatorsFile,
  exportArgs,
  fastRate,
  killThenFailNextProfile,
  ledger,
  platform,
  readExport,
  readManifest,
  runCli,
} from "./harness.js";

const world = fleetWorld("fleet");
const { fleetArgs } = world;

describe("a fleet's retries and budget", () => {
  test("a refunded failure the client gave up on (--max-retries 0) is retried as a BullMQ job, free, until the creator is done", async () => {
    await world.mock.reset();
    const { path, creators } = await creatorsFile(world.dir.path, 6, "retried");
    const out = `${world.dir.path}/retried`;
    await world.mock.inject({ operation: "shortvideoProfile", status: 502, count: 3 });
    const result = await runCli(exportArgs(world.mock, path, out, [...fleetArgs(2, 4), "--max-retries", "0"]));
    expect(result.code, result.stderr).toBe(0);
    const manifest = await readManifest(out);
    const log = await world.mock.log({ operation: "shortvideoProfile" });
    expect(log.filter((entry) => entry.status === 502).map((entry) => entry.creditsCharged)).toEqual([0, 0, 0]);
    expect(manifest.creators.done).toBe(creators.length);
    expect(manifest.creditsCharged).toBe((await ledger(world.mock)).credits);
  });

  test("a fleet whose only successes are its workers' (they learn no balance) checks it at the end when an earlier run was killed: exact to the credit", async () => {
    await world.mock.reset();
    const { path, out } = await killThenFailNextProfile(world.mock, world.dir.path, "unlearnt");
    // The coordinator's one answer alone is the refunded failure: the creator goes to a worker as a job, which succeeds.
    const fleet = await runCli(exportArgs(world.mock, path, out, [...fleetArgs(1, 1), "--max-retries", "0"]));
    expect(fleet.code, fleet.stderr).toBe(0);
    expect(fleet.stderr).toMatch(/an earlier run was killed with answers in flight, and no run since learnt the balance: 1 credit\(s\) spent on a balance check/);
    const manifest = await readManifest(out);
    expect([manifest.creditsUnseen, manifest.creditsProbing, manifest.runsAwaitingBalance, manifest.unreconciledRuns]).toEqual([1, 1, 0, 0]);
    expect(manifest.creditsCharged).toBe((await ledger(world.mock)).credits);
  });

  test("--max-credits is one budget for every worker, in Redis: the fleet stops within it, exit 3, and a larger one finishes", async () => {
    await world.mock.reset();
    const { path, creators } = await creatorsFile(world.dir.path, 30, "frugal");
    const out = `${world.dir.path}/frugal`;
    const stopped = await runCli(exportArgs(world.mock, path, out, [...fleetArgs(3, 2), "--max-credits", "40"]));
    expect(stopped.code, stopped.stderr).toBe(3);
    let manifest = await readManifest(out);
    expect(manifest.stoppedBecause).toBe("maxCredits");
    expect(manifest.creditsCharged).toBeLessThanOrEqual(40);
    expect(manifest.creditsCharged).toBe((await ledger(world.mock)).credits);

    const finished = await runCli(exportArgs(world.mock, path, out, [...fleetArgs(3, 2), "--max-credits", "1000"]));
    expect(finished.code, finished.stderr).toBe(0);
    manifest = await readManifest(out);
    expect(manifest.creators.done).toBe(creators.length);
    expect(manifest.creditsCharged).toBe((await ledger(world.mock)).credits);
    expect((await readExport(out)).duplicates).toEqual([]);
  });

  test("poll works on a fleet's folder (the disk holds the checkpoints), and the fleet's rerun keeps what it appended", async () => {
    await world.mock.reset();
    const { path } = await creatorsFile(world.dir.path, 6, "fleetpoll");
    const out = `${world.dir.path}/fleetpoll`;
    const fleet = exportArgs(world.mock, path, out, fleetArgs(2, 2));
    expect((await runCli(fleet)).code).toBe(0);
    const exported = await readExport(out);
    await world.mock.advance(72 * 3600);
    const before = await ledger(world.mock);
    const poll = await runCli(["poll", "--platform", platform, "--out", out, "--base-url", world.mock.baseUrls.scraper, "--requests-per-minute", String(fastRate), "--json"]);
    expect(poll.code, poll.stderr).toBe(0);
    const summary = JSON.parse(poll.stdout.trim().split("\n").at(-1) as string);
    expect(summary).toMatchObject({ event: "finish", creators: 6 });
    expect(summary.newPosts).toBeGreaterThan(0);
    expect(summary.creditsCharged).toBe((await ledger(world.mock)).credits - before.credits);
    const polled = await readExport(out);
    expect(polled.duplicates).toEqual([]);
    expect(polled.posts).toBe(exported.posts + summary.newPosts);

    const requests = (await ledger(world.mock)).requests;
    expect((await runCli(fleet)).code).toBe(0);
    expect((await ledger(world.mock)).requests).toBe(requests);
    expect((await readManifest(out)).creditsCharged).toBe((await ledger(world.mock)).credits);
  });
});
