import { execFileSync } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { RunningMock } from "@content-scraper/mock";
import { echoes, leakedForms, type Received, type ScriptedServer, startScriptedServer } from "@content-scraper/test-server";
import { startRedis } from "@content-scraper/test-server/redis";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type CliResult, creatorsFile, eventually, exportArgs, platform, readManifest, runCli, spawnCli, startSandbox, tempDir, workersOf } from "./harness.js";

// The CLI against servers that misbehave on purpose: one that echoes the key into every answer, one that lies about
// money, and a Redis written by someone else. Whatever they do, no credential reaches a file, a stream or an argv, no
// call goes past the budget, and no key goes anywhere this process was not configured to send it.

let server: ScriptedServer;
let mock: RunningMock;
let dir: Awaited<ReturnType<typeof tempDir>>;
const redisPassword = "redis-pass-7c1e0f4a9b2d6e8f";
// A key with a random part as long as a real one's: each half of it is a credential's worth.
const echoedKey = "scrape_live_cli_h0stile_Key_7c1e0f4a9b2d";
const keyPrefix = "scrape_live_";
let redis: Awaited<ReturnType<typeof startRedis>>;
beforeAll(async () => {
  server = await startScriptedServer("/api/v1");
  mock = await startSandbox("hostile");
  redis = await startRedis(["--requirepass", redisPassword]);
  dir = await tempDir();
});
afterAll(async () => {
  await server.close();
  await mock.close();
  await redis.stop();
  await dir.remove();
});

const json = (response: Parameters<Parameters<ScriptedServer["script"]>[0]>[1], status: number, body: unknown) =>
  void response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

/**
 * A server that answers like the API, but puts the key it received everywhere it can, in every encoding a server may
 * give it (`echoes`): the profile's name, a post's title and page for each, the cursor, the request id, an error's
 * message, a plain-text 500. The JSON it writes by hand keeps its escapes as sent (a `\u0073` reads as an `s`), and
 * the titles hold them as text.
 */
function reflecting(request: Received, response: Parameters<typeof json>[0]) {
  const key = String(request.headers["x-api-key"]);
  const pieces = echoes.flatMap((echo) => echo.pieces(key, keyPrefix));
  const all = pieces.join(" ");
  const body = JSON.parse(request.body || "{}") as { username?: string; cursor?: string };
  const meta = { credits_charged: 1, credits_remaining: 1000 };
  const byHand = (status: number, text: string) => void response.writeHead(status, { "content-type": "application/json", "x-echo": pieces[0] as string }).end(text);
  if (body.username === "notfound") return byHand(404, `{"error":"PROFILE_NOT_FOUND","message":"no profile for key ${all}","request_id":"req_${pieces[1]}"}`);
  if (body.username === "broken") return void response.writeHead(500, { "content-type": "text/plain" }).end(`upstream said: bad key ${all}`);
  const metaText = JSON.stringify(meta);
  if (request.path.endsWith("/profile")) {
    return byHand(200, `{"data":{"username":"${body.username}","display_name":"echo ${all}","follower_count":1},"meta":${metaText},"upstream_calls":1,"request_id":"req_${pieces[2]}"}`);
  }
  const page = body.cursor ? 2 : 1;
  const posts = pieces.map((piece, n) => ({ id: `${body.username}-${page}-${n}`, platform, title: `key ${piece}`, postPage: `https://v.example/${piece}` }));
  return json(response, 200, { data: { posts, next_cursor: page === 1 ? `next-${pieces[3]}` : null }, meta, upstream_calls: 1, request_id: `req_${page}_${pieces[4]}` });
}

/** Every file under `root`, dotfiles and sub-folders included. */
async function everyFile(root: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) found.push(...(await everyFile(path)));
    else found.push(path);
  }
  return found;
}

/**
 * Asserts that no stream and no file under `root` holds any of the secrets (each with its public prefix) in any
 * encoding a server may give it; answers how many files were read.
 */
async function expectNoSecret(root: string, results: CliResult[], secrets: Array<[secret: string, publicPrefix: string]>): Promise<number> {
  const files = await everyFile(root);
  const texts = [...results.flatMap((result) => [result.stdout, result.stderr]), ...(await Promise.all(files.map((file) => readFile(file, "utf8"))))];
  for (const [secret, publicPrefix] of secrets) expect(leakedForms(texts, secret, publicPrefix)).toEqual([]);
  return files.length;
}

describe("a server that echoes the key", () => {
  test("export, poll and a one-off call write and print no key in any encoding: files, manifest, checkpoints, journal, stdout and stderr", async () => {
    server.script(reflecting);
    const creators = `${dir.path}/echo.txt`;
    const { writeFile } = await import("node:fs/promises");
    await writeFile(creators, "creator.one\ncreator.two\nnotfound\nbroken\n");
    const out = `${dir.path}/echo`;
    const base = ["--base-url", server.baseUrl, "--max-retries", "0", "--concurrency", "1"];
    const env = { SCRAPER_API_KEY: echoedKey };
    const results: CliResult[] = [];
    results.push(await runCli(["export", "--platform", platform, "--creators", creators, "--out", out, "--json", ...base], env));
    // The plain-text 500 is not the API's envelope: the run stops there, with its (redacted) message.
    expect(results[0]?.code, results[0]?.stderr).toBe(2);
    results.push(await runCli(["export", "--platform", platform, "--creators", creators, "--out", out, ...base], env));
    results.push(await runCli(["poll", "--platform", platform, "--out", out, ...base], env));
    results.push(await runCli(["profile", platform, "notfound", ...base.slice(0, 4)], env));
    results.push(await runCli(["posts", platform, "creator.one", ...base.slice(0, 4)], env));
    const manifest = await readManifest(out);
    expect(manifest.entries.map((entry) => entry.status)).toEqual(["done", "done", "failed", "stopped"]);
    expect(manifest.entries[2]?.error?.message).toMatch(/no profile for key \[redacted\]/);
    expect(server.requests.every((request) => request.headers["x-api-key"] === echoedKey), "the server did get the key, and echoed it").toBe(true);
    expect(await expectNoSecret(out, results, [[echoedKey, keyPrefix]])).toBeGreaterThanOrEqual(8);
  });

  test("a fleet on a Redis with a password: no key and no password in any file, stream or process's argv", async () => {
    server.script(reflecting);
    const { path } = await creatorsFile(dir.path, 6, "echoed");
    const out = `${dir.path}/echo-fleet`;
    const url = `redis://127.0.0.1:${redis.port}`;
    const env = { CONTENT_SCRAPER_REDIS_PASSWORD: redisPassword, SCRAPER_API_KEY: echoedKey };
    const args = ["export", "--platform", platform, "--creators", path, "--out", out, "--base-url", server.baseUrl, "--json", "--redis", url, "--workers", "2"];
    const running = spawnCli(args, env);
    // The coordinator and its workers, while they run: what `ps` shows every user of the machine.
    let argv = "";
    await eventually(() => {
      const pids = [running.pid as number, ...workersOf(running.pid as number)];
      argv = pids.map((pid) => readArgv(pid)).join("\n");
      return pids.length === 3;
    });
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);
    expect(argv).toContain("worker --export");
    expect(argv).not.toContain(redisPassword);
    expect(await expectNoSecret(out, [result], [[echoedKey, keyPrefix], [redisPassword, ""]])).toBeGreaterThanOrEqual(12);

    // A password on the command line is refused, and not repeated.
    const refused = await runCli([...args.slice(0, -4), "--redis", `redis://:${redisPassword}@127.0.0.1:${redis.port}`]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/CONTENT_SCRAPER_REDIS_PASSWORD/);
    expect(refused.stderr).not.toContain(redisPassword);
  });
});


function readArgv(pid: number): string {
  try {
    return execFileSync("cat", [`/proc/${pid}/cmdline`], { encoding: "utf8" }).replaceAll("\0", " ");
  } catch {
    return "";
  }
}

describe("a server that lies about money", () => {
  test.each([
    ["0", 0],
    ["-1", -1],
  ])("--max-credits 5 sends at most 5 calls when every answer says it cost %s, and the manifest never goes below 0", async (_name, charged) => {
    // An endless catalog whose pages cost nothing, or less than nothing.
    server.script((request, response) => {
      const body = JSON.parse(request.body || "{}") as { cursor?: string };
      const meta = { credits_charged: charged, credits_remaining: 1000 };
      if (request.path.endsWith("/profile")) return json(response, 200, { data: { username: "liar", display_name: "Liar", follower_count: 1 }, meta, upstream_calls: 1, request_id: "req_1" });
      const page = Number(body.cursor ?? 0) + 1;
      return json(response, 200, { data: { posts: [{ id: `post-${page}`, platform }], next_cursor: String(page) }, meta, upstream_calls: 1, request_id: `req_p${page}` });
    });
    const { path } = await creatorsFile(dir.path, 3, `liar${charged}`);
    const out = `${dir.path}/liar${charged}`;
    const result = await runCli(["export", "--platform", platform, "--creators", path, "--out", out, "--base-url", server.baseUrl, "--max-credits", "5"]);
    expect(server.requests.length).toBeLessThanOrEqual(5);
    const manifest = await readManifest(out);
    expect(manifest.creditsCharged).toBeGreaterThanOrEqual(0);
    for (const entry of manifest.entries) expect(entry.creditsCharged).toBeGreaterThanOrEqual(0);
    // Free pages run into the budget (exit 3); a negative charge is no envelope of the API (exit 2, at the first one).
    expect(result.code, result.stderr).toBe(charged === 0 ? 3 : 2);
    expect(manifest.stoppedBecause).toBe(charged === 0 ? "maxCredits" : "notTheApi");
  });
});

describe("a Redis written by someone else", () => {
  test("a worker sends its key only where its own configuration says: an export's base address rewritten in Redis is refused", async () => {
    await mock.reset();
    const recorder = await startScriptedServer("/api/v1");
    const admin = new Redis(redis.port, "127.0.0.1", { password: redisPassword });
    try {
      const { path } = await creatorsFile(dir.path, 4, "trusting");
      const out = `${dir.path}/trusting`;
      const env = { CONTENT_SCRAPER_REDIS_PASSWORD: redisPassword };
      // A coordinator with no local workers: the export waits in Redis for workers to join.
      const coordinator = spawnCli(exportArgs(mock, path, out, ["--redis", `redis://127.0.0.1:${redis.port}`, "--workers", "0"]), env);
      await eventually(() => /fleet export ([0-9a-f]{16})/.test(coordinator.stderrSoFar()));
      const id = coordinator.stderrSoFar().match(/fleet export ([0-9a-f]{16})/)?.[1] as string;
      const configKey = `content-scraper:export:${id}:config`;
      await eventually(async () => (await admin.get(configKey)) !== null);
      const config = JSON.parse((await admin.get(configKey)) as string);
      await admin.set(configKey, JSON.stringify({ ...config, baseUrl: recorder.baseUrl }));
      const worker = (extra: string[], extraEnv: Record<string, string | undefined> = {}) =>
        runCli(["worker", "--export", id, "--out", out, "--redis", `redis://127.0.0.1:${redis.port}`, ...extra], { ...env, ...extraEnv });
      const own = await worker(["--base-url", mock.baseUrls.scraper]);
      expect(own.code, own.stderr).toBe(2);
      expect(own.stderr).toMatch(/this worker's base address \(http:\/\/127\.0\.0\.1:\d+\) is not export [0-9a-f]{16}'s/);
      const none = await worker([]);
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/--base-url is required/);
      // A worker given another folder than the coordinator's is refused too: its lock is not the export's.
      const elsewhere = await runCli(["worker", "--export", id, "--out", `${dir.path}/elsewhere`, "--redis", `redis://127.0.0.1:${redis.port}`, "--base-url", recorder.baseUrl], env);
      expect(elsewhere.code).toBe(2);
      expect(elsewhere.stderr).toMatch(/is not export [0-9a-f]{16}'s folder/);
      expect(recorder.requests, "the recorder never heard from a worker").toEqual([]);
      coordinator.kill("SIGINT");
      await coordinator.result;
    } finally {
      admin.disconnect();
      await recorder.close();
    }
  });
});
