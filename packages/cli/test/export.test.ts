import type { RunningMock } from "@content-scraper/mock";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { creatorsFile, exportArgs, ledger, readExport, readManifest, runCli, startSandbox, tempDir } from "./harness.js";

let mock: RunningMock;
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  mock = await startSandbox();
  dir = await tempDir();
});
afterAll(async () => {
  await mock.close();
  await dir.remove();
});

describe("content-scraper export on one machine", () => {
  test("writes each creator's profile and every post once, and a manifest whose credits are the sandbox's ledger", async () => {
    await mock.reset();
    const { path, creators } = await creatorsFile(dir.path, 12);
    const out = `${dir.path}/plain`;
    const result = await runCli(exportArgs(mock, path, out, ["--concurrency", "4"]));
    expect(result.stderr).toMatch(/creator\.0: done \(end\), \d+ pages, \d+ posts, \d+ credits/);
    expect(result.stderr).toMatch(/export complete: 12\/12 creators done/);
    expect(result.stdout).toBe("");
    expect(result.code).toBe(0);

    const exported = await readExport(out);
    const manifest = await readManifest(out);
    const sandbox = await ledger(mock);
    expect(exported.duplicates).toEqual([]);
    expect(exported.profiles).toBe(creators.length);
    expect(manifest.creators).toEqual({ total: 12, done: 12, failed: 0, stopped: 0, pending: 0 });
    expect(manifest.posts).toBe(exported.posts);
    expect(manifest.creditsCharged).toBe(sandbox.credits);
    expect(manifest.pages).toBe(sandbox.postsPages);
    expect(manifest.entries.every((entry) => entry.stoppedBecause === "end")).toBe(true);

    // A rerun of a finished export sends nothing.
    const again = await runCli(exportArgs(mock, path, out));
    expect(again.code).toBe(0);
    expect((await ledger(mock)).requests).toBe(sandbox.requests);
    expect((await readExport(out)).posts).toBe(exported.posts);
  });

  test("--json prints one event per line on stdout, ending with the totals", async () => {
    await mock.reset();
    const { path } = await creatorsFile(dir.path, 3, "json");
    const out = `${dir.path}/json`;
    const result = await runCli(exportArgs(mock, path, out, ["--json"]));
    expect(result.code).toBe(0);
    const events = result.stdout.trim().split("\n").map((line) => JSON.parse(line) as { event: string; [key: string]: unknown });
    expect(events[0]).toEqual({ event: "start", creators: 3, alreadyDone: 0 });
    expect(events.filter((event) => event.event === "creator").map((event) => event.status)).toEqual(["done", "done", "done"]);
    const finish = events.at(-1);
    expect(finish).toMatchObject({ event: "finish", stoppedBecause: "complete", creditsCharged: (await ledger(mock)).credits });
    // One event per page, carrying that page's own figures: the posts it added, what it cost, its request id.
    const pages = events.filter((event) => event.event === "page");
    expect(pages).toHaveLength(finish?.pages as number);
    for (const page of pages) expect(page).toMatchObject({ creator: expect.any(String), file: expect.any(String), page: expect.any(Number), posts: expect.any(Number), creditsCharged: 1, requestId: expect.stringMatching(/^req_/), walk: "export" });
    expect(pages.reduce((sum, page) => sum + (page.posts as number), 0)).toBe(finish?.posts);
  });

  test("a creator the service does not find fails with its code; the others finish; exit status 1", async () => {
    await mock.reset();
    const { path } = await creatorsFile(dir.path, 2, "mixed");
    const { writeFile } = await import("node:fs/promises");
    await writeFile(path, "mixed.0\nnotfound\nmixed.1\n");
    const out = `${dir.path}/mixed`;
    const result = await runCli(exportArgs(mock, path, out));
    const manifest = await readManifest(out);
    const missing = manifest.entries.find((entry) => entry.creator === "notfound");
    expect(missing).toMatchObject({ status: "failed", error: { code: "PROFILE_NOT_FOUND", status: 404 } });
    expect(manifest.creators.done).toBe(2);
    expect(manifest.creditsCharged).toBe((await ledger(mock)).credits);
    expect(result.code).toBe(1);
  });
});

describe("a base address that is not the API", () => {
  test("an answer without the API's envelope stops the run (exit 2) without failing the creator; the right address then finishes", async () => {
    await mock.reset();
    const { path, creators } = await creatorsFile(dir.path, 3, "misaddressed");
    const out = `${dir.path}/misaddressed`;
    const origin = new URL(mock.baseUrls.scraper).origin;
    const wrong = await runCli([...exportArgs(mock, path, out), "--base-url", origin]);
    expect(wrong.code, wrong.stderr).toBe(2);
    expect(wrong.stderr).toMatch(/stopped: .*404/);
    expect(wrong.stderr.trim().split("\n")).toHaveLength(4);
    const manifest = await readManifest(out);
    expect(manifest.stoppedBecause).toBe("notTheApi");
    expect(manifest.creators.failed).toBe(0);
    expect(manifest.entries[0]).toMatchObject({ status: "stopped", stoppedBecause: "notTheApi" });
    // Nothing more was asked of the wrong address than the one answer that told.
    expect(await mock.log()).toHaveLength(1);

    const right = await runCli(exportArgs(mock, path, out));
    expect(right.code, right.stderr).toBe(0);
    expect((await readManifest(out)).creators.done).toBe(creators.length);
  });

  test("plain http:// to another machine is refused unless --allow-insecure-http, before anything is sent", async () => {
    const result = await runCli(["profile", "shortvideo", "maya.bakes", "--base-url", "http://scraper.example.invalid/api/v1"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--base-url is plain http:\/\/ to scraper\.example\.invalid.*--allow-insecure-http/);
  });
});

describe("on a terminal", () => {
  test("a progress bar shows creators done of total, posts, credits spent and left, pacing and an ETA", async () => {
    await mock.reset();
    const { path } = await creatorsFile(dir.path, 4, "tty");
    const { bin, fastRate } = await import("./harness.js");
    const { execFile } = await import("node:child_process");
    const { promisify } = await import("node:util");
    // script(1) runs the command on a pseudo-terminal: stderr is a TTY there.
    const command = [process.execPath, bin, ...exportArgs(mock, path, `${dir.path}/tty`, ["--max-credits", "500", "--requests-per-minute", String(fastRate)])].join(" ");
    const { stdout } = await promisify(execFile)("script", ["-qec", command, "/dev/null"], { env: { ...process.env, SCRAPER_API_KEY: "scrape_live_cli_tests" } });
    // The last frame: three lines within 80 columns (script's terminal).
    expect(stdout).toMatch(/[░█]{24} 4\/4 creators \| ETA \d+s/);
    expect(stdout).toMatch(/\d+ posts \| \d+ credits spent \| \d+ budget, \d+ balance left/);
    expect(stdout).toMatch(/rate limit \d+\/\d+ left \| calls paced \d+\.\d s in all/);
    expect(stdout).toMatch(/export complete: 4\/4 creators done/);
  });
});
