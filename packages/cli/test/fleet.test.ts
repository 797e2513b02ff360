import type { RunningMock } from "@content-scraper/mock";
import { createRedisStores } from "@content-scraper/redis-store";
// The redis-store package's own harness: a real redis-server on a free loopback port, without persistence.
import { startRedis } from "@content-scraper/test-server/redis";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  alive,
  creatorsFile,
  eventually,
  exportArgs,
  fastRate,
  holdRequests,
  ledger,
  platform,
  postsByFile,
  readExport,
  readManifest,
  release,
  runCli,
  spawnCli,
  startSandbox,
  tempDir,
  untilHeld,
  workersOf,
} from "./harness.js";

let mock: RunningMock;
let reference: RunningMock;
let redis: Awaited<ReturnType<typeof startRedis>>;
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  // Two sandboxes on one seed serve the same catalogs: the fleet's, and an uninterrupted laptop export's.
  mock = await startSandbox("fleet");
  reference = await startSandbox("fleet");
  redis = await startRedis();
  dir = await tempDir();
});
afterAll(async () => {
  await mock.close();
  await reference.close();
  await redis.stop();
  await dir.remove();
});

/** A fleet's arguments: its Redis, workers and concurrency; a lease of 2 s, so a dead worker's creators move on quickly. */
const fleetArgs = (workers: number, concurrency: number) => ["--redis", redis.url, "--workers", String(workers), "--concurrency", String(concurrency), "--lease-seconds", "2"];

/** An uninterrupted laptop export of the same creators on the reference sandbox: what every fleet export must equal. */
async function uninterrupted(creators: string, name: string) {
  await reference.reset();
  const out = `${dir.path}/${name}-reference`;
  expect((await runCli(exportArgs(reference, creators, out))).code).toBe(0);
  return { files: await postsByFile(out), ledger: await ledger(reference) };
}

describe("content-scraper export --redis (a BullMQ fleet)", () => {
  test("three workers export every creator once, with the credits of the sandbox's ledger; a rerun sends nothing", async () => {
    await mock.reset();
    const { path, creators } = await creatorsFile(dir.path, 30, "fleet");
    const out = `${dir.path}/fleet`;
    const result = await runCli(exportArgs(mock, path, out, fleetArgs(3, 2)));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/fleet export [0-9a-f]{16}: 30 of 30 creators to export/);
    const manifest = await readManifest(out);
    const sandbox = await ledger(mock);
    expect(manifest.creators.done).toBe(creators.length);
    expect(manifest.creditsCharged).toBe(sandbox.credits);
    expect(manifest.pages).toBe(sandbox.postsPages);
    const exported = await readExport(out);
    expect(exported.duplicates).toEqual([]);
    expect(exported.profiles).toBe(creators.length);

    // The files and checkpoints on disk are the truth: running it again sends nothing.
    const again = await runCli(exportArgs(mock, path, out, fleetArgs(2, 2)));
    expect(again.code, again.stderr).toBe(0);
    expect((await ledger(mock)).requests).toBe(sandbox.requests);
  });

  test("a worker killed while its pages are held: its two creators go to the others, resumed mid-page, and every credit is found", async () => {
    await mock.reset();
    const { path, creators } = await creatorsFile(dir.path, 30, "survivor");
    const out = `${dir.path}/survivor`;
    const clean = await uninterrupted(path, "survivor");
    // Every worker's first two pages are held by the sandbox: three workers of two creators each, all in flight.
    await holdRequests(mock, 6);
    const coordinator = spawnCli(exportArgs(mock, path, out, [...fleetArgs(3, 2), "--max-credits", "1000"]));
    await untilHeld(mock);
    const [victim] = workersOf(coordinator.pid as number);
    process.kill(victim as number, "SIGKILL");
    await eventually(() => !alive(victim as number));
    // The sandbox answers all six, and charges them: the victim's two answers are lost with it.
    await release(mock);
    const result = await coordinator.result;
    expect(result.code, result.stderr).toBe(0);
    const manifest = await readManifest(out);
    const sandbox = await ledger(mock);
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
    const admin = new Redis(redis.url);
    const epoch = (await admin.get(`content-scraper:export:${id}:epoch`)) as string;
    const stores = createRedisStores({ redis: admin });
    expect(await stores.budget.state(`export:${id}:${epoch}`)).toMatchObject({ reserved: 0 });
    admin.disconnect();
  });

  test("the coordinator killed (SIGKILL) while pages are held: its workers leave at once, and the rerun resumes from disk, every credit found", async () => {
    await mock.reset();
    const { path, creators } = await creatorsFile(dir.path, 24, "phoenix");
    const out = `${dir.path}/phoenix`;
    const clean = await uninterrupted(path, "phoenix");
    await holdRequests(mock, 4);
    const first = spawnCli(exportArgs(mock, path, out, fleetArgs(2, 2)));
    await untilHeld(mock);
    const workers = workersOf(first.pid as number);
    expect(workers).toHaveLength(2);
    process.kill(first.pid as number, "SIGKILL");
    await first.result;
    // Workers die with their coordinator: the IPC channel closes, they abort what is in flight and exit.
    expect(await eventually(() => workers.every((pid) => !alive(pid)), 10_000), "the workers outlived their coordinator").toBe(true);
    await release(mock);

    const resumed = await runCli(exportArgs(mock, path, out, fleetArgs(2, 2)));
    expect(resumed.code, resumed.stderr).toBe(0);
    const manifest = await readManifest(out);
    const sandbox = await ledger(mock);
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
    await mock.reset();
    const { path, creators } = await creatorsFile(dir.path, 24, "amnesia");
    const out = `${dir.path}/amnesia`;
    const clean = await uninterrupted(path, "amnesia");
    const args = exportArgs(mock, path, out, fleetArgs(2, 2));
    // Let a few creators finish, then hold the next four pages: Redis goes away with them in flight.
    await mock.inject({ operation: `${platform}Posts`, latencySeconds: 0, count: 10 });
    await holdRequests(mock, 4);
    const coordinator = spawnCli(args);
    await untilHeld(mock);
    await redis.kill();
    expect(await eventually(() => /Redis at .* unreachable/.test(coordinator.stderrSoFar()))).toBe(true);
    await redis.start();
    const stopped = await coordinator.result;
    await release(mock);
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
    const sandbox = await ledger(mock);
    expect(manifest.creators.done).toBe(creators.length);
    expect(await postsByFile(out)).toEqual(clean.files);
    // Every profile was bought once; the only pages bought twice are the four held when Redis went away.
    const profiles = (await mock.log({ operation: `${platform}Profile` })).length;
    expect(profiles).toBe(clean.ledger.requests - clean.ledger.postsPages);
    expect(sandbox.postsPages - clean.ledger.postsPages).toBe(4);
    expect(manifest.creditsCharged).toBe(sandbox.credits);
  });

  test("frozen for 4 s: one line when it stops answering, one when it answers again, nothing sent meanwhile, every post once", async () => {
    await mock.reset();
    const { path, creators } = await creatorsFile(dir.path, 24, "frozen");
    const out = `${dir.path}/frozen`;
    await holdRequests(mock, 4);
    const coordinator = spawnCli(exportArgs(mock, path, out, fleetArgs(2, 2)));
    await untilHeld(mock);
    redis.freeze();
    // The four held answers come back to workers that cannot reach Redis: nothing more may be sent until it answers.
    const before = (await ledger(mock)).requests;
    await release(mock);
    await eventually(async () => (await ledger(mock)).requests === before + 4);
    const frozenAt = (await ledger(mock)).requests;
    expect(await eventually(() => /unreachable/.test(coordinator.stderrSoFar()))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const sentWhileFrozen = (await ledger(mock)).requests - frozenAt;
    redis.thaw();
    const result = await coordinator.result;
    expect(sentWhileFrozen).toBe(0);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.match(/unreachable/g)).toHaveLength(1);
    expect(result.stderr.match(/answers again/g)).toHaveLength(1);
    const manifest = await readManifest(out);
    expect(manifest.creators.done).toBe(creators.length);
    expect((await readExport(out)).duplicates).toEqual([]);
    expect(manifest.creditsCharged).toBe((await ledger(mock)).credits);
  });
});

describe("a fleet's retries and budget", () => {
  test("a refunded failure the client gave up on (--max-retries 0) is retried as a BullMQ job, free, until the creator is done", async () => {
    await mock.reset();
    const { path, creators } = await creatorsFile(dir.path, 6, "retried");
    const out = `${dir.path}/retried`;
    await mock.inject({ operation: "shortvideoProfile", status: 502, count: 3 });
    const result = await runCli(exportArgs(mock, path, out, [...fleetArgs(2, 4), "--max-retries", "0"]));
    expect(result.code, result.stderr).toBe(0);
    const manifest = await readManifest(out);
    const log = await mock.log({ operation: "shortvideoProfile" });
    expect(log.filter((entry) => entry.status === 502).map((entry) => entry.creditsCharged)).toEqual([0, 0, 0]);
    expect(manifest.creators.done).toBe(creators.length);
    expect(manifest.creditsCharged).toBe((await ledger(mock)).credits);
  });

  test("--max-credits is one budget for every worker, in Redis: the fleet stops within it, exit 3, and a larger one finishes", async () => {
    await mock.reset();
    const { path, creators } = await creatorsFile(dir.path, 30, "frugal");
    const out = `${dir.path}/frugal`;
    const stopped = await runCli(exportArgs(mock, path, out, [...fleetArgs(3, 2), "--max-credits", "40"]));
    expect(stopped.code, stopped.stderr).toBe(3);
    let manifest = await readManifest(out);
    expect(manifest.stoppedBecause).toBe("maxCredits");
    expect(manifest.creditsCharged).toBeLessThanOrEqual(40);
    expect(manifest.creditsCharged).toBe((await ledger(mock)).credits);

    const finished = await runCli(exportArgs(mock, path, out, [...fleetArgs(3, 2), "--max-credits", "1000"]));
    expect(finished.code, finished.stderr).toBe(0);
    manifest = await readManifest(out);
    expect(manifest.creators.done).toBe(creators.length);
    expect(manifest.creditsCharged).toBe((await ledger(mock)).credits);
    expect((await readExport(out)).duplicates).toEqual([]);
  });

  test("poll works on a fleet's folder (the disk holds the checkpoints), and the fleet's rerun keeps what it appended", async () => {
    await mock.reset();
    const { path } = await creatorsFile(dir.path, 6, "fleetpoll");
    const out = `${dir.path}/fleetpoll`;
    const fleet = exportArgs(mock, path, out, fleetArgs(2, 2));
    expect((await runCli(fleet)).code).toBe(0);
    const exported = await readExport(out);
    await mock.advance(72 * 3600);
    const before = await ledger(mock);
    const poll = await runCli(["poll", "--platform", platform, "--out", out, "--base-url", mock.baseUrls.scraper, "--requests-per-minute", String(fastRate), "--json"]);
    expect(poll.code, poll.stderr).toBe(0);
    const summary = JSON.parse(poll.stdout.trim().split("\n").at(-1) as string);
    expect(summary).toMatchObject({ event: "finish", creators: 6 });
    expect(summary.newPosts).toBeGreaterThan(0);
    expect(summary.creditsCharged).toBe((await ledger(mock)).credits - before.credits);
    const polled = await readExport(out);
    expect(polled.duplicates).toEqual([]);
    expect(polled.posts).toBe(exported.posts + summary.newPosts);

    const requests = (await ledger(mock)).requests;
    expect((await runCli(fleet)).code).toBe(0);
    expect((await ledger(mock)).requests).toBe(requests);
    expect((await readManifest(out)).creditsCharged).toBe((await ledger(mock)).credits);
  });
});
