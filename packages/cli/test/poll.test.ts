import type { RunningMock } from "@content-scraper/mock";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { creatorsFile, exportArgs, fastRate, ledger, platform, readExport, readManifest, runCli, startSandbox, tempDir } from "./harness.js";

let mock: RunningMock;
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  mock = await startSandbox("poll");
  dir = await tempDir();
});
afterAll(async () => {
  await mock.close();
  await dir.remove();
});

const pollArgs = (out: string) => ["poll", "--platform", platform, "--out", out, "--base-url", mock.baseUrls.scraper, "--requests-per-minute", String(fastRate), "--json"];

describe("content-scraper poll", () => {
  test("appends the posts that appeared since the export, once, and reports what the poll cost", async () => {
    const { path, creators } = await creatorsFile(dir.path, 8, "polled");
    const out = `${dir.path}/polled`;
    expect((await runCli(exportArgs(mock, path, out))).code).toBe(0);
    const exported = await readExport(out);

    // Nothing new yet: page one of each creator, all seen.
    const before = await ledger(mock);
    const idle = await runCli(pollArgs(out));
    expect(idle.code).toBe(0);
    const idleSummary = JSON.parse(idle.stdout.trim().split("\n").at(-1) as string);
    expect(idleSummary).toMatchObject({ event: "finish", creators: creators.length, newPosts: 0 });
    expect(idleSummary.creditsCharged).toBe((await ledger(mock)).credits - before.credits);

    // Three days later every creator has posted again.
    await mock.advance(72 * 3600);
    const middle = await ledger(mock);
    const result = await runCli(pollArgs(out));
    expect(result.code).toBe(0);
    const events = result.stdout.trim().split("\n").map((line) => JSON.parse(line));
    const summary = events.at(-1);
    expect(summary.newPosts).toBeGreaterThan(0);
    expect(summary.creditsCharged).toBe((await ledger(mock)).credits - middle.credits);
    const polled = await readExport(out);
    expect(polled.duplicates).toEqual([]);
    expect(polled.posts).toBe(exported.posts + summary.newPosts);

    // The checkpoints moved with the files: an export run afterwards keeps the polled posts and sends nothing.
    const requests = (await ledger(mock)).requests;
    expect((await runCli(exportArgs(mock, path, out))).code).toBe(0);
    expect((await ledger(mock)).requests).toBe(requests);
    expect((await readExport(out)).posts).toBe(polled.posts);
    const manifest = await readManifest(out);
    expect(manifest.creditsCharged).toBe((await ledger(mock)).credits);
  });
});
