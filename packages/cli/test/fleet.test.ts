
import { createRedisStores } from "@content-scraper/redis-store";
import { Redis } from "ioredis";
import { describe, expect, test } from "vitest";
import { fleetWorld } from "./world.js";
import {
  alive,
  creatorsFile,
  eventually,
  exportArgs,
  holdRequests,
  ledger,
  platform,
  postsByFile,
  readExport,
  readManifest,
  release,
  runCli,
  spawnCli,
  untilHeld,
  workersOf,
} from "./harness.js";

const world = fleetWorld("fleet");
const { fleetArgs, uninterrupted } = world;

describe("content-scraper export --redis (a BullMQ fleet)", () => {
  test("three workers export every creator once, with the credits of the sandbox's ledger; a rerun sends nothing", async () => {
    await world.mock.reset();
    const { path, creators } = await creatorsFile(world.dir.path, 30, "fleet");
    const out = `${world.dir.path}/fleet`;
    const result = await runCli(exportArgs(world.mock, path, out, fleetArgs(3, 2)));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/fleet export [0-9a-f]{16}: 30 of 30 creators to export/);
    const manifest = await readManifest(out);
    const sandbox = await ledger(world.mock);
    expect(manifest.creators.done).toBe(creators.length);
    expect(manifest.creditsCharged).toBe(sandbox.credits);
    expect(manifest.pages).toBe(sandbox.postsPages);
    const exported = await readExport(out);
    expect(exported.duplicates).toEqual([]);
    expect(exported.profiles).toBe(creators.length);

    // The files and checkpoints on disk are the truth: running it again sends nothing.
    const again = await runCli(exportArgs(world.mock, path, out, fleetArgs(2, 2)));
    expect(again.code, again.stderr).toBe(0);
    expect((await ledger(world.mock)).requests).toBe(sandbox.requests);
  });

  test("a worker killed while its pages are held: its two creators go to the others, resumed mid-page, and every credit is found", async () => {
    await world.mock.reset();
    const { path, creators } = await creatorsFile(world.dir.path, 30, "survivor");
    const out = `${world.dir.path}/survivor`;
    const clean = await uninterrupted(path, "survivor");
    // Every worker's first two pages are held by the sandbox: three workers of two creators each, all in flight (the
    // sandbox's rate given, so that no page waits for a first one to show it).
    await holdRequests(world.mock, 6);
    const coordinator = spawnCli(exportArgs(world.mock, path, out, [...fleetArgs(3, 2), "--max-credits", "1000", "--assume-rate", "1"]));
    await untilHeld(world.mock);
    const [victim] = workersOf(coordinator.pid as number);
    process.kill(victim as number, "SIGKILL");
    await eventually(() => !alive(victim as number));
    // The sandbox answers all six, and charges them: the victim's two answers are lost with it.
    await release(world.mock);
    const result = await coordinator.result;
    expect(result.code, result.stderr).toBe(0);
    const manifest = await readManifest(out);
    const sandbox = await ledger(world.mock);
    expect(manifest.creators.done).toBe(creators.length);
    expect((await readExport(out)).duplicates).toEqual([]);
    expect(await postsByFile(out)).toEqual(clean.files);
    expect(manifest.resumedMidPage, "the victim's two creators were resumed by the others").toBe(2);
    expect(sandbox.postsPages - clean.ledger.postsPages, "the two pages lost with the victim were fetched again").toBe(2);
    // The balance check at the run's end found the two credits the victim's lost answers were charged.
    expect(manifest.creditsUnseen).toBe(2);
    expect(manifest.creditsProbing).toBe(1);
    expect(manifest.creditsCharged).toBe(sandbox.credits);
    expect(result.stderr).toMatch(/a worker died with answers in flight: 1 credit\(s\) spent on a balance check/);
    // The victim's two reservations in the fleet's budget were released when its heartbeat lapsed, not held 30 minutes.
    const id = result.stderr.match(/fleet export ([0-9a-f]{16})/)?.[1] as string;
    const admin = new Redis(world.redis.url);
    const epoch = (await admin.get(`content-scraper:export:${id}:epoch`)) as string;
    const stores = createRedisStores({ redis: admin });
    expect(await stores.budget.state(`export:${id}:${epoch}`)).toMatchObject({ reserved: 0 });
    admin.disconnect();
  });

  test("the coordinator killed (SIGKILL) while pages are held: its workers leave at once, and the rerun resumes from disk, every credit found", async () => {
    await world.mock.reset();
    const { path, creators } = await creatorsFile(world.dir.path, 24, "phoenix");
    const out = `${world.dir.path}/phoenix`;
    const clean = await uninterrupted(path, "phoenix");
    await holdRequests(world.mock, 4);
    const first = spawnCli(exportArgs(world.mock, path, out, fleetArgs(2, 2)));
    await untilHeld(world.mock);
    const workers = workersOf(first.pid as number);
    expect(workers).toHaveLength(2);
    process.kill(first.pid as number, "SIGKILL");
    await first.result;
    // Workers die with their coordinator: the IPC channel closes, they abort what is in flight and exit.
    expect(await eventually(() => workers.every((pid) => !alive(pid)), 10_000), "the workers outlived their coordinator").toBe(true);
    await release(world.mock);

    const resumed = await runCli(exportArgs(world.mock, path, out, fleetArgs(2, 2)));
    expect(resumed.code, resumed.stderr).toBe(0);
    const manifest = await readManifest(out);
    const sandbox = await ledger(world.mock);
    expect(manifest.creators.done).toBe(creators.length);
    expect((await readExport(out)).duplicates).toEqual([]);
    expect(await postsByFile(out)).toEqual(clean.files);
    expect(sandbox.postsPages - clean.ledger.postsPages, "the four held pages were fetched again").toBe(4);
    expect(manifest.creditsUnseen).toBe(4);
    expect(manifest.creditsCharged).toBe(sandbox.credits);
  });
});

describe("a fleet's Redis", () => {
  test("restarted empty mid-export: the run stops with exit 4, never 'complete'; the rerun buys nothing finished again", async () => {
    await world.mock.reset();
    const { path, creators } = await creatorsFile(world.dir.path, 24, "amnesia");
    const out = `${world.dir.path}/amnesia`;
    const clean = await uninterrupted(path, "amnesia");
    const args = exportArgs(world.mock, path, out, fleetArgs(2, 2));
    // Let a few creators finish, then hold the next four pages: Redis goes away with them in flight.
    await world.mock.inject({ operation: `${platform}Posts`, latencySeconds: 0, count: 10 });
    await holdRequests(world.mock, 4);
    const coordinator = spawnCli(args);
    await untilHeld(world.mock);
    await world.redis.kill();
    expect(await eventually(() => /Redis at .* unreachable/.test(coordinator.stderrSoFar()))).toBe(true);
    await world.redis.start();
    const stopped = await coordinator.result;
    await release(world.mock);
    expect(stopped.code, stopped.stderr).toBe(4);
    expect(stopped.stderr).toMatch(/Redis lost export [0-9a-f]{16}'s run/);
    expect(stopped.stderr.match(/unreachable/g)).toHaveLength(1);
    expect(stopped.stderr).not.toMatch(/\n\s+at /);
    const partial = await readManifest(out);
    expect(partial.stoppedBecause).toBe("coordinationLost");
    expect(partial.creators.done).toBeLessThan(creators.length);

    const resumed = await runCli(args);
    expect(resumed.code, resumed.stderr).toBe(0);
    const manifest = await readManifest(out);
    const sandbox = await ledger(world.mock);
    expect(manifest.creators.done).toBe(creators.length);
    expect(await postsByFile(out)).toEqual(clean.files);
    // Every profile was bought once; the only pages bought twice are the four held when Redis went away.
    const profiles = (await world.mock.log({ operation: `${platform}Profile` })).length;
    expect(profiles).toBe(clean.ledger.requests - clean.ledger.postsPages);
    expect(sandbox.postsPages - clean.ledger.postsPages).toBe(4);
    expect(manifest.creditsCharged).toBe(sandbox.credits);
  });

  test("frozen for 4 s: one line when it stops answering, one when it answers again, nothing sent meanwhile, every post once", async () => {
    await world.mock.reset();
    const { path, creators } = await creatorsFile(world.dir.path, 24, "frozen");
    const out = `${world.dir.path}/frozen`;
    await holdRequests(world.mock, 4);
    const coordinator = spawnCli(exportArgs(world.mock, path, out, fleetArgs(2, 2)));
    await untilHeld(world.mock);
    world.redis.freeze();
    // The four held answers come back to workers that cannot reach Redis: nothing more may be sent until it answers.
    const before = (await ledger(world.mock)).requests;
    await release(world.mock);
    await eventually(async () => (await ledger(world.mock)).requests === before + 4);
    const frozenAt = (await ledger(world.mock)).requests;
    expect(await eventually(() => /unreachable/.test(coordinator.stderrSoFar()))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const sentWhileFrozen = (await ledger(world.mock)).requests - frozenAt;
    world.redis.thaw();
    const result = await coordinator.result;
    expect(sentWhileFrozen).toBe(0);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.match(/unreachable/g)).toHaveLength(1);
    expect(result.stderr.match(/answers again/g)).toHaveLength(1);
    const manifest = await readManifest(out);
    expect(manifest.creators.done).toBe(creators.length);
    expect((await readExport(out)).duplicates).toEqual([]);
    expect(manifest.creditsCharged).toBe((await ledger(world.mock)).credits);
  });
});
