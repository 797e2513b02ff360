import { execFileSync } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import type { RunningMock } from "@content-scraper/mock";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
// The redis-store package's own harness: a real redis-server on a free loopback port, without persistence.
import { startRedis } from "@content-scraper/test-server/redis";
import { creatorsFile, exportArgs, ledger, readExport, readManifest, runCli, spawnCli, startSandbox, tempDir } from "./harness.js";

let mock: RunningMock;
let redis: Awaited<ReturnType<typeof startRedis>>;
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  mock = await startSandbox("fleet");
  redis = await startRedis();
  dir = await tempDir();
});
afterAll(async () => {
  await mock.close();
  await redis.stop();
  await dir.remove();
});

/** The worker processes a coordinator forked. */
function workersOf(pid: number): number[] {
  const output = execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" });
  return output.split("\n").map((line) => Number(line.trim())).filter((value) => value > 0);
}

describe("content-scraper export --redis (a BullMQ fleet)", () => {
  test("three workers export every creator once, with the credits of the sandbox's ledger", async () => {
    await mock.reset();
    const { path, creators } = await creatorsFile(dir.path, 30, "fleet");
    const out = `${dir.path}/fleet`;
    const result = await runCli(exportArgs(mock, path, out, ["--redis", redis.url, "--workers", "3", "--concurrency", "2"]));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/fleet export [0-9a-f]{16}: 30 of 30 creators queued/);
    const manifest = await readManifest(out);
    const sandbox = await ledger(mock);
    expect(manifest.creators.done).toBe(creators.length);
    expect(manifest.creditsCharged).toBe(sandbox.credits);
    expect(manifest.pages).toBe(sandbox.postsPages);
    const exported = await readExport(out);
    expect(exported.duplicates).toEqual([]);
    expect(exported.profiles).toBe(creators.length);

    // The fleet's checkpoints live in Redis: running it again sends nothing.
    const again = await runCli(exportArgs(mock, path, out, ["--redis", redis.url, "--workers", "2"]));
    expect(again.code).toBe(0);
    expect((await ledger(mock)).requests).toBe(sandbox.requests);
  });

  test("a worker killed mid-export: its creators are picked up by the others, and nothing is written twice", async () => {
    await mock.reset();
    const { path, creators } = await creatorsFile(dir.path, 40, "survivor");
    const out = `${dir.path}/survivor`;
    // Pages that take 150 ms keep the export running long enough to kill a worker in the middle of it.
    await mock.inject({ operation: "shortvideoPosts", latencySeconds: 0.15, count: 1000 });
    const coordinator = spawnCli(exportArgs(mock, path, out, ["--redis", redis.url, "--workers", "3", "--concurrency", "2"]));
    while ((await ledger(mock)).postsPages < 15) await sleep(20);
    const [victim] = workersOf(coordinator.pid as number);
    process.kill(victim as number, "SIGKILL");
    const result = await coordinator.result;
    expect(result.code, result.stderr).toBe(0);
    const manifest = await readManifest(out);
    const sandbox = await ledger(mock);
    expect(manifest.creators.done).toBe(creators.length);
    expect((await readExport(out)).duplicates).toEqual([]);
    expect(manifest.resumedMidPage, "the killed worker's creators were resumed by another").toBeGreaterThan(0);
    expect(manifest.creditsCharged).toBeLessThanOrEqual(sandbox.credits);
    expect(sandbox.credits - manifest.creditsCharged).toBeLessThanOrEqual(manifest.resumedMidPage);
    expect(sandbox.postsPages - manifest.pages).toBeLessThanOrEqual(manifest.resumedMidPage);
  });

  test("the whole fleet killed (SIGKILL) resumes as a whole from Redis", async () => {
    await mock.reset();
    const { path, creators } = await creatorsFile(dir.path, 30, "phoenix");
    const out = `${dir.path}/phoenix`;
    const args = exportArgs(mock, path, out, ["--redis", redis.url, "--workers", "2", "--concurrency", "3"]);
    await mock.inject({ operation: "shortvideoPosts", latencySeconds: 0.1, count: 1000 });
    const first = spawnCli(args);
    while ((await ledger(mock)).postsPages < 20) await sleep(20);
    process.kill(-(first.pid as number), "SIGKILL");
    await first.result;
    const resumed = await runCli(args);
    expect(resumed.code, resumed.stderr).toBe(0);
    const manifest = await readManifest(out);
    const sandbox = await ledger(mock);
    expect(manifest.creators.done).toBe(creators.length);
    expect((await readExport(out)).duplicates).toEqual([]);
    expect(sandbox.credits - manifest.creditsCharged).toBeLessThanOrEqual(manifest.resumedMidPage);
    expect(sandbox.credits).toBeGreaterThanOrEqual(manifest.creditsCharged);
  });
});

describe("a fleet's retries", () => {
  test("a refunded failure the client gave up on (--max-retries 0) is retried as a BullMQ job, free, until the creator is done", async () => {
    await mock.reset();
    const { path, creators } = await creatorsFile(dir.path, 6, "retried");
    const out = `${dir.path}/retried`;
    await mock.inject({ operation: "shortvideoProfile", status: 502, count: 3 });
    const result = await runCli(exportArgs(mock, path, out, ["--redis", redis.url, "--workers", "2", "--max-retries", "0"]));
    expect(result.code, result.stderr).toBe(0);
    const manifest = await readManifest(out);
    const log = await mock.log({ operation: "shortvideoProfile" });
    expect(log.filter((entry) => entry.status === 502).map((entry) => entry.creditsCharged)).toEqual([0, 0, 0]);
    expect(manifest.creators.done).toBe(creators.length);
    expect(manifest.creditsCharged).toBe((await ledger(mock)).credits);
  });
});

describe("a fleet's budget", () => {
  test("--max-credits is one budget for every worker, in Redis: the fleet stops within it, exit 3, and a larger one finishes", async () => {
    await mock.reset();
    const { path, creators } = await creatorsFile(dir.path, 30, "frugal");
    const out = `${dir.path}/frugal`;
    const fleet = ["--redis", redis.url, "--workers", "3", "--concurrency", "2"];
    const stopped = await runCli(exportArgs(mock, path, out, [...fleet, "--max-credits", "40"]));
    expect(stopped.code, stopped.stderr).toBe(3);
    let manifest = await readManifest(out);
    expect(manifest.stoppedBecause).toBe("maxCredits");
    expect(manifest.creditsCharged).toBeLessThanOrEqual(40);
    expect(manifest.creditsCharged).toBe((await ledger(mock)).credits);

    const finished = await runCli(exportArgs(mock, path, out, [...fleet, "--max-credits", "1000"]));
    expect(finished.code, finished.stderr).toBe(0);
    manifest = await readManifest(out);
    expect(manifest.creators.done).toBe(creators.length);
    expect(manifest.creditsCharged).toBe((await ledger(mock)).credits);
    expect((await readExport(out)).duplicates).toEqual([]);
  });
});

describe("poll after a fleet export", () => {
  test("poll --redis finds the fleet's checkpoints, appends the new posts once, and the fleet's rerun keeps them", async () => {
    await mock.reset();
    const { path } = await creatorsFile(dir.path, 6, "fleetpoll");
    const out = `${dir.path}/fleetpoll`;
    const fleet = exportArgs(mock, path, out, ["--redis", redis.url, "--workers", "2"]);
    expect((await runCli(fleet)).code).toBe(0);
    const exported = await readExport(out);
    await mock.advance(72 * 3600);
    const before = await ledger(mock);
    const { fastRate, platform } = await import("./harness.js");
    const poll = await runCli(["poll", "--platform", platform, "--out", out, "--creators", path, "--redis", redis.url, "--base-url", mock.baseUrls.scraper, "--requests-per-minute", String(fastRate), "--json"]);
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

describe("Redis unreachable mid-export", () => {
  test("frozen for 4 s: nothing is sent meanwhile, and the fleet finishes once it answers, every post once", async () => {
    await mock.reset();
    const { path, creators } = await creatorsFile(dir.path, 24, "frozen");
    const out = `${dir.path}/frozen`;
    await mock.inject({ operation: "shortvideoPosts", latencySeconds: 0.1, count: 1000 });
    const coordinator = spawnCli(exportArgs(mock, path, out, ["--redis", redis.url, "--workers", "2", "--concurrency", "2"]));
    while ((await ledger(mock)).postsPages < 8) await sleep(20);
    redis.freeze();
    await sleep(1000);
    const frozenAt = (await ledger(mock)).requests;
    await sleep(3000);
    const sentWhileFrozen = (await ledger(mock)).requests - frozenAt;
    redis.thaw();
    const result = await coordinator.result;
    expect(sentWhileFrozen).toBe(0);
    expect(result.code, result.stderr).toBe(0);
    const manifest = await readManifest(out);
    expect(manifest.creators.done).toBe(creators.length);
    expect((await readExport(out)).duplicates).toEqual([]);
    expect(manifest.creditsCharged).toBe((await ledger(mock)).credits);
  });
});
