import type { RunningMock } from "@content-scraper/mock";
// The redis-store package's own harness: a real redis-server on a free loopback port, without persistence.
import { startRedis } from "@content-scraper/test-server/redis";
import { afterAll, beforeAll, expect } from "vitest";
import { exportArgs, ledger, postsByFile, runCli, startSandbox, tempDir } from "./harness.js";

/**
 * What a test file runs against, started before its tests and stopped after them: two sandboxes on one seed serving
 * the same catalogs (one for the export under test, one for an uninterrupted export to compare it with) and a folder.
 */
export function sandboxWorld(seed: string) {
  const world = {} as { mock: RunningMock; reference: RunningMock; dir: Awaited<ReturnType<typeof tempDir>> };
  beforeAll(async () => {
    [world.mock, world.reference, world.dir] = await Promise.all([startSandbox(seed), startSandbox(seed), tempDir()]);
  });
  afterAll(async () => {
    await Promise.all([world.mock?.close(), world.reference?.close(), world.dir?.remove()]);
  });
  return Object.assign(world, {
    /** An uninterrupted laptop export of the same creators on the reference sandbox: what every export must equal. */
    async uninterrupted(creators: string, name: string) {
      await world.reference.reset();
      const out = `${world.dir.path}/${name}-reference`;
      expect((await runCli(exportArgs(world.reference, creators, out))).code).toBe(0);
      return { files: await postsByFile(out), ledger: await ledger(world.reference) };
    },
  });
}

/**
 * A sandbox world with a redis-server for a fleet. The fleet tests are split over files so that vitest runs them side
 * by side.
 */
export function fleetWorld(seed: string) {
  const world = Object.assign(sandboxWorld(seed), { redis: undefined as unknown as Awaited<ReturnType<typeof startRedis>> });
  beforeAll(async () => {
    world.redis = await startRedis();
  });
  afterAll(async () => {
    await world.redis?.stop();
  });
  return Object.assign(world, {
    /** A fleet's arguments: its Redis, workers and concurrency; a lease of 2 s, so a dead worker's creators move on quickly. */
    fleetArgs: (workers: number, concurrency: number) => ["--redis", world.redis.url, "--workers", String(workers), "--concurrency", String(concurrency), "--lease-seconds", "2"],
  });
}
