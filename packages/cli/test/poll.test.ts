import type { RunningMock } from "@content-scraper/mock";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { creatorsFile, exportArgs, fastRate, ledger, platform, postsByFile, readExport, readManifest, runCli, startSandbox, tempDir } from "./harness.js";

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

const pollArgs = (out: string, extra: string[] = []) => ["poll", "--platform", platform, "--out", out, "--base-url", mock.baseUrls.scraper, "--requests-per-minute", String(fastRate), "--json", ...extra];
const events = (stdout: string) => stdout.trim().split("\n").map((line) => JSON.parse(line) as { event: string; [field: string]: unknown });

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

  test("months later it walks page after page until it reaches the posts it holds; a poll cut short by its budget goes on next time, and nothing is skipped", async () => {
    await mock.reset();
    const { path } = await creatorsFile(dir.path, 4, "months");
    const out = `${dir.path}/months`;
    expect((await runCli(exportArgs(mock, path, out))).code).toBe(0);
    await mock.advance(120 * 86_400);

    // Two credits: the first creator's poll stops two pages in, saved where it stands.
    const cut = await runCli(pollArgs(out, ["--max-credits", "2", "--concurrency", "1"]));
    expect(cut.code, cut.stderr).toBe(3);
    let manifest = await readManifest(out);
    expect(manifest.lastPoll).toMatchObject({ stoppedBecause: "maxCredits", pages: 2 });
    expect(manifest.creators.done).toBe(4);
    expect(events(cut.stdout).find((event) => event.event === "creator")).toMatchObject({ unfinished: true, pages: 2 });

    const rest = await runCli(pollArgs(out));
    expect(rest.code, rest.stderr).toBe(0);
    const all = events(rest.stdout);
    const summary = all.at(-1) as Record<string, number>;
    const pages = all.filter((event) => event.event === "page");
    expect(pages).toHaveLength(summary.pages as number);
    expect(pages.length, "every creator's poll took more than page one").toBeGreaterThan(4);
    for (const page of pages) expect(page).toMatchObject({ walk: "poll", creditsCharged: 1, requestId: expect.stringMatching(/^req_/) });
    manifest = await readManifest(out);
    expect(manifest.creditsCharged).toBe((await ledger(mock)).credits);
    expect(manifest.posts).toBe((await readExport(out)).posts);
    expect(manifest.lastPoll).toMatchObject({ stoppedBecause: "complete", newPosts: summary.newPosts });

    // What the polls appended is exactly what a fresh export finds today: nothing skipped, nothing twice.
    const fresh = `${dir.path}/months-fresh`;
    expect((await runCli(exportArgs(mock, path, fresh))).code).toBe(0);
    expect(await postsByFile(out)).toEqual(await postsByFile(fresh));
    expect((await readExport(out)).duplicates).toEqual([]);
  });
});
