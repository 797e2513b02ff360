import type { RunningMock } from "@content-scraper/mock";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { creatorsFile, runCli, startSandbox, tempDir } from "./harness.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startSandbox("one-off");
});
afterAll(() => mock.close());

describe("one-off calls and the command line", () => {
  test("profile, posts and post print the answer's data and meta as JSON", async () => {
    const base = ["--base-url", mock.baseUrls.scraper];
    const profile = await runCli(["profile", "shortvideo", "maya.bakes", ...base]);
    expect(profile.code).toBe(0);
    expect(JSON.parse(profile.stdout)).toMatchObject({ data: { username: "maya.bakes", display_name: "Maya Bakes" }, meta: { creditsCharged: 1 } });

    const posts = await runCli(["posts", "shortvideo", "maya.bakes", ...base]);
    const page = JSON.parse(posts.stdout);
    expect(page.data.posts.length).toBeGreaterThan(0);
    const next = await runCli(["posts", "shortvideo", "maya.bakes", "--cursor", page.data.next_cursor, ...base]);
    expect(JSON.parse(next.stdout).data.posts[0].id).not.toBe(page.data.posts[0].id);

    const url = page.data.posts[0].postPage as string;
    const post = await runCli(["post", "shortvideo", url, "--include-transcript", ...base]);
    expect(post.code).toBe(0);
    expect(JSON.parse(post.stdout).data.posts[0].postPage).toBe(url);
  });

  test("an API error prints its status, code and request id as JSON on stderr and exits 1, without the key", async () => {
    const result = await runCli(["profile", "shortvideo", "notfound", "--base-url", mock.baseUrls.scraper]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { status: 404, code: "PROFILE_NOT_FOUND", requestId: expect.any(String) } });
    expect(result.stderr).not.toContain("scrape_live_cli_tests");
  });

  test("bad arguments and a missing key exit 2 before anything is sent, naming what is wrong", async () => {
    const before = (await mock.log()).length;
    const noKey = await runCli(["profile", "shortvideo", "maya.bakes", "--base-url", mock.baseUrls.scraper], { SCRAPER_API_KEY: undefined });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/SCRAPER_API_KEY is not set/);
    const badConcurrency = await runCli(["export", "--platform", "shortvideo", "--creators", "x", "--out", "y", "--concurrency", "0"]);
    expect(badConcurrency.code).toBe(2);
    expect(badConcurrency.stderr).toMatch(/--concurrency must be an integer of at least 1/);
    const missing = await runCli(["export", "--platform", "shortvideo", "--out", "y"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/required option '--creators <file>' not specified/);
    const workersAlone = await runCli(["export", "--platform", "shortvideo", "--creators", "x", "--out", "y", "--workers", "3", "--base-url", mock.baseUrls.scraper]);
    expect(workersAlone.code).toBe(2);
    expect(workersAlone.stderr).toMatch(/--workers and --lease-seconds need --redis/);
    const badPlatform = await runCli(["profile", "nowhere", "maya.bakes", "--base-url", mock.baseUrls.scraper]);
    expect(badPlatform.code).toBe(2);
    expect(badPlatform.stderr).toMatch(/platform/);
    const dir = await tempDir();
    const { path } = await creatorsFile(dir.path, 1);
    const exportPlatform = await runCli(["export", "--platform", "nowhere", "--creators", path, "--out", `${dir.path}/out`, "--base-url", mock.baseUrls.scraper]);
    await dir.remove();
    expect(exportPlatform.code).toBe(2);
    expect(exportPlatform.stderr).toMatch(/platform "nowhere" has no posts operation/);
    expect((await mock.log()).length).toBe(before);
  });

  test("--help reads like a CLI's: commands, options, environment, exit statuses", async () => {
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: content-scraper \[options\] \[command\]/);
    for (const command of ["export", "worker", "poll", "profile", "posts", "post"]) expect(help.stdout).toMatch(new RegExp(`\\n  ${command} `));
    expect(help.stdout).toMatch(/SCRAPER_API_KEY/);
    const exportHelp = await runCli(["export", "--help"]);
    expect(exportHelp.stdout).toMatch(/--max-credits <n>/);
    expect(exportHelp.stdout).toMatch(/130 +interrupted/);
  });
});
