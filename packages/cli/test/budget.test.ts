import type { RunningMock } from "@content-scraper/mock";
import { startRateProxy } from "@content-scraper/test-server/rate-proxy";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiKey, creatorsFile, exportArgs, ledger, readExport, readManifest, runCli, startSandbox, tempDir } from "./harness.js";

let mock: RunningMock;
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  mock = await startSandbox("budget");
  dir = await tempDir();
});
afterAll(async () => {
  await mock.close();
  await dir.remove();
});

describe("credits", () => {
  test("a 402 stops the export cleanly (exit 3); after a top-up the same command finishes it", async () => {
    await mock.reset();
    await mock.setBalance(apiKey, 25);
    const { path, creators } = await creatorsFile(dir.path, 20, "broke");
    const out = `${dir.path}/broke`;
    const stopped = await runCli(exportArgs(mock, path, out, ["--concurrency", "4"]));
    expect(stopped.code).toBe(3);
    const partial = await readManifest(out);
    expect(partial.stoppedBecause).toBe("INSUFFICIENT_SCRAPER_CREDITS");
    expect(partial.entries.some((entry) => entry.error?.code === "INSUFFICIENT_SCRAPER_CREDITS")).toBe(true);
    expect(partial.creditsCharged).toBe((await ledger(mock)).credits);
    expect(partial.creditsCharged).toBeLessThanOrEqual(25);

    await mock.setBalance(apiKey, 100_000);
    const resumed = await runCli(exportArgs(mock, path, out, ["--concurrency", "4"]));
    expect(resumed.code).toBe(0);
    const manifest = await readManifest(out);
    const sandbox = await ledger(mock);
    expect(manifest.creators.done).toBe(creators.length);
    expect(manifest.creditsCharged).toBe(sandbox.credits);
    // The 402 run ended with nothing in flight: the top-up before the rerun is no loss to reconcile.
    expect([manifest.creditsUnseen, manifest.unreconciledRuns]).toEqual([0, 0]);
    expect(manifest.pages).toBe(sandbox.postsPages);
    expect((await readExport(out)).duplicates).toEqual([]);
  });

  test.each([3, 25])("at an account rate of %i, --max-credits 30 is passed by one call's difference at most", async (rate) => {
    await mock.reset();
    const proxy = await startRateProxy(mock.baseUrls.scraper, rate);
    try {
      const { path } = await creatorsFile(dir.path, 50, `rate${rate}`);
      const out = `${dir.path}/rate${rate}`;
      const args = exportArgs(mock, path, out, ["--concurrency", "8", "--max-credits", "30"]).map((arg) => (arg === mock.baseUrls.scraper ? proxy.baseUrl : arg));
      const result = await runCli(args);
      expect(result.code).toBe(3);
      const manifest = await readManifest(out);
      expect(manifest.stoppedBecause).toBe("maxCredits");
      expect(proxy.charged).toBeLessThanOrEqual(30 + rate - 1);
      expect(manifest.creditsCharged).toBe(proxy.charged);
    } finally {
      await proxy.close();
    }
  });

  test("--max-credits bounds every run's total (all runs together), and a larger budget continues", async () => {
    await mock.reset();
    const { path, creators } = await creatorsFile(dir.path, 20, "bounded");
    const out = `${dir.path}/bounded`;
    const first = await runCli(exportArgs(mock, path, out, ["--concurrency", "8", "--max-credits", "30"]));
    expect(first.code).toBe(3);
    let manifest = await readManifest(out);
    expect(manifest.stoppedBecause).toBe("maxCredits");
    expect(manifest.creditsCharged).toBe((await ledger(mock)).credits);
    expect(manifest.creditsCharged).toBeLessThanOrEqual(30);
    expect(manifest.creditsCharged).toBeGreaterThan(20);

    const second = await runCli(exportArgs(mock, path, out, ["--concurrency", "8", "--max-credits", "45"]));
    expect(second.code).toBe(3);
    manifest = await readManifest(out);
    expect(manifest.creditsCharged).toBe((await ledger(mock)).credits);
    expect(manifest.creditsCharged).toBeLessThanOrEqual(45);

    const last = await runCli(exportArgs(mock, path, out, ["--concurrency", "8"]));
    expect(last.code).toBe(0);
    manifest = await readManifest(out);
    expect(manifest.creators.done).toBe(creators.length);
    expect(manifest.creditsCharged).toBe((await ledger(mock)).credits);
    expect((await readExport(out)).duplicates).toEqual([]);
  });
});
