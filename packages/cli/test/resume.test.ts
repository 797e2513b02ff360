import { setTimeout as sleep } from "node:timers/promises";
import type { RunningMock } from "@content-scraper/mock";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiKey, creatorsFile, exportArgs, ledger, postsByFile, readExport, readManifest, runCli, spawnCli, startSandbox, tempDir } from "./harness.js";

let mock: RunningMock;
let reference: RunningMock;
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  // Two sandboxes on one seed serve the same catalogs: one for the interrupted export, one for an uninterrupted one.
  mock = await startSandbox("resume");
  reference = await startSandbox("resume");
  dir = await tempDir();
});
afterAll(async () => {
  await mock.close();
  await reference.close();
  await dir.remove();
});

describe("resuming an export", () => {
  test("killed with SIGKILL three times at random moments, it finishes with every post once and every credit accounted for", async () => {
    const { path, creators } = await creatorsFile(dir.path, 60, "killed");
    const out = `${dir.path}/killed`;
    const kills: string[] = [];
    // Pages that take 50 ms stretch the export to a few seconds, so each kill lands in the middle of it.
    await mock.inject({ operation: "shortvideoPosts", latencySeconds: 0.05, count: 100_000 });
    for (let kill = 0; kill < 3; kill++) {
      const before = (await ledger(mock)).requests;
      const child = spawnCli(exportArgs(mock, path, out, ["--concurrency", "6"]));
      // Wait until this run has learnt the balance it starts from (its first answer is stored once the second is
      // out: it goes one creator at a time until then), then a random moment: mid-request, mid-write, between pages.
      while ((await ledger(mock)).requests < before + 2 && child.exitCode === null) await sleep(10);
      const delay = Math.floor(Math.random() * 800);
      await sleep(delay);
      if (child.exitCode === null) process.kill(-(child.pid as number), "SIGKILL");
      const killed = await child.result;
      kills.push(`${delay} ms (${killed.signal ?? `exit ${killed.code}: ${killed.stderr}`})`);
    }
    const last = await runCli(exportArgs(mock, path, out, ["--concurrency", "6"]));
    expect(last.code, `${last.stderr} (kills: ${kills.join(", ")})`).toBe(0);

    const whole = `${dir.path}/whole`;
    expect((await runCli(exportArgs(reference, path, whole, ["--concurrency", "6"]))).code).toBe(0);
    const exported = await readExport(out);
    expect(exported.duplicates).toEqual([]);
    expect(exported.profiles).toBe(creators.length);
    expect(await postsByFile(out)).toEqual(await postsByFile(whole));

    const manifest = await readManifest(out);
    const sandbox = await ledger(mock);
    const uninterrupted = await ledger(reference);
    expect(manifest.creators.done).toBe(creators.length);
    expect(manifest.resumedMidPage, "the kills landed mid-export").toBeGreaterThan(0);
    // Every credit is accounted for: the answers received, and those a kill lost in flight (the sandbox charged them,
    // the export never saw them), found from the balance each run starts from.
    expect(manifest.unreconciledRuns).toBe(0);
    expect(manifest.creditsCharged).toBe(sandbox.credits);
    expect(manifest.creditsCharged - manifest.creditsUnseen).toBe(uninterrupted.credits);
    // Each creator found mid-page on a restart stands for at most one such page, fetched again.
    expect(manifest.creditsUnseen).toBeLessThanOrEqual(manifest.resumedMidPage);
    expect(sandbox.requests - uninterrupted.requests).toBeLessThanOrEqual(manifest.resumedMidPage);
  });

  test("Ctrl-C (SIGINT) finishes the pages in flight, checkpoints, exits 130; the rerun continues with exact accounting", async () => {
    await mock.reset();
    const { path, creators } = await creatorsFile(dir.path, 40, "interrupted");
    const out = `${dir.path}/interrupted`;
    const child = spawnCli(exportArgs(mock, path, out, ["--concurrency", "4"]));
    while ((await ledger(mock)).postsPages < 10) await sleep(10);
    child.kill("SIGINT");
    const stopped = await child.result;
    expect(stopped.stderr).toMatch(/SIGINT: finishing the pages in flight/);
    expect(stopped.code).toBe(130);
    const partial = await readManifest(out);
    expect(partial.stoppedBecause).toBe("interrupted");
    expect(partial.creators.done).toBeLessThan(creators.length);
    expect(partial.creditsCharged).toBe((await ledger(mock)).credits);

    const resumed = await runCli(exportArgs(mock, path, out, ["--concurrency", "4"]));
    expect(resumed.code).toBe(0);
    const manifest = await readManifest(out);
    const sandbox = await ledger(mock);
    expect(manifest.resumedMidPage).toBe(0);
    expect(manifest.creditsCharged).toBe(sandbox.credits);
    expect(manifest.pages).toBe(sandbox.postsPages);
    expect((await readExport(out)).duplicates).toEqual([]);
  });

  test("a top-up between a kill and the rerun is flagged, not guessed: the balance rose, so what the kill lost is unknown", async () => {
    await mock.reset();
    const { path } = await creatorsFile(dir.path, 30, "topped");
    const out = `${dir.path}/topped`;
    await mock.inject({ operation: "shortvideoPosts", latencySeconds: 0.05, count: 100_000 });
    const child = spawnCli(exportArgs(mock, path, out, ["--concurrency", "6"]));
    while ((await ledger(mock)).postsPages < 5 && child.exitCode === null) await sleep(10);
    process.kill(-(child.pid as number), "SIGKILL");
    await child.result;
    await mock.setBalance(apiKey, 1_000_000);
    expect((await runCli(exportArgs(mock, path, out, ["--concurrency", "6"]))).code).toBe(0);
    const manifest = await readManifest(out);
    expect(manifest.unreconciledRuns).toBe(1);
    expect(manifest.creditsUnseen).toBe(0);
  });
});
