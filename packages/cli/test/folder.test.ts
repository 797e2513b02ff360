import { mkdir, readFile, symlink, truncate, writeFile, appendFile, unlink } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { fileName } from "../src/index.js";
import {
  creatorsFile,
  exportArgs,
  holdRequests,
  ledger,
  platform,
  postsByFile,
  readExport,
  readManifest,
  release,
  runCli,
  spawnCli,
  untilHeld,
} from "./harness.js";
import { sandboxWorld } from "./world.js";

const world = sandboxWorld("folder");

describe("one run per output folder", () => {
  test("a second run on the same --out is refused while the first lives (laptop or fleet), and the lock of a killed run is taken over", async () => {
    await world.mock.reset();
    const { path, creators } = await creatorsFile(world.dir.path, 4, "locked");
    const out = `${world.dir.path}/locked`;
    await holdRequests(world.mock, 1);
    const first = spawnCli(exportArgs(world.mock, path, out, ["--concurrency", "1"]));
    await untilHeld(world.mock);
    const sent = (await ledger(world.mock)).requests;
    for (const extra of [[], ["--redis", "redis://127.0.0.1:1"]]) {
      const second = await runCli(exportArgs(world.mock, path, out, extra));
      expect(second.code, second.stderr).toBe(2);
      expect(second.stderr).toMatch(new RegExp(`is in use by another run \\(process ${first.pid}, since `));
    }
    expect((await ledger(world.mock)).requests, "the refused runs sent nothing").toBe(sent);

    // Killed, the first run leaves its lock behind: the next run finds its process gone and takes the folder over.
    process.kill(-(first.pid as number), "SIGKILL");
    await first.result;
    await release(world.mock);
    const lock = JSON.parse(await readFile(join(out, platform, ".lock"), "utf8"));
    expect(lock).toMatchObject({ pid: first.pid, host: hostname() });
    const next = await runCli(exportArgs(world.mock, path, out));
    expect(next.code, next.stderr).toBe(0);
    expect((await readManifest(out)).creators.done).toBe(creators.length);
    expect((await readExport(out)).duplicates).toEqual([]);
    // A finished run lets go of its lock.
    await expect(readFile(join(out, platform, ".lock"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  test("a lock whose pid now belongs to another process (its start time differs) is stale too; one of another machine is not", async () => {
    await world.mock.reset();
    const { path } = await creatorsFile(world.dir.path, 2, "reused");
    const out = `${world.dir.path}/reused`;
    await mkdir(join(out, platform), { recursive: true });
    const lockPath = join(out, platform, ".lock");
    // This test's own pid, alive, but started at another time: a pid reused since the lock was written.
    await writeFile(lockPath, JSON.stringify({ pid: process.pid, host: hostname(), processStart: "1", token: "t1", since: "2026-01-01T00:00:00.000Z" }));
    expect((await runCli(exportArgs(world.mock, path, out))).code).toBe(0);
    await writeFile(lockPath, JSON.stringify({ pid: 1, host: "another-machine", token: "t2", since: "2026-01-01T00:00:00.000Z" }));
    const refused = await runCli(exportArgs(world.mock, path, out));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/process 1 on another-machine.*remove .*\.lock if that machine's run is gone/);
  });
});

describe("the output folder is checked before any call", () => {
  test("a folder that cannot be created or is a file exits 2 at once, naming it, with nothing sent", async () => {
    await world.mock.reset();
    const { path } = await creatorsFile(world.dir.path, 2, "nowhere");
    await writeFile(`${world.dir.path}/a-file`, "");
    for (const out of ["/proc/nope", `${world.dir.path}/a-file`, `${world.dir.path}/a-file/below`]) {
      const result = await runCli(exportArgs(world.mock, path, out));
      expect(result.code, `${out}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(/^content-scraper: --out: cannot create \S+ \((ENOENT|EEXIST|ENOTDIR)\)\n$/);
    }
    expect((await ledger(world.mock)).requests).toBe(0);
  });

  test("links planted in the folder (its platform folder, the manifest, a creator's file, the checkpoints) are refused; their targets stay untouched", async () => {
    await world.mock.reset();
    const { path, creators } = await creatorsFile(world.dir.path, 2, "planted");
    const target = `${world.dir.path}/precious.txt`;
    const cases: Array<[string, (folder: string) => Promise<void>]> = [
      ["the platform folder", async (folder) => symlink(world.dir.path, folder)],
      ["manifest.json", async (folder) => symlink(target, join(folder, "manifest.json"))],
      ["a creator's file", async (folder) => symlink(target, join(folder, fileName(creators[1] as string)))],
      ["a checkpoint", async (folder) => symlink(target, join(folder, ".checkpoints", fileName(creators[0] as string).replace(".jsonl", ".json")))],
    ];
    for (const [index, [name, plant]] of cases.entries()) {
      await writeFile(target, "precious\n");
      const out = `${world.dir.path}/planted-${index}`;
      const folder = join(out, platform);
      await mkdir(index === 0 ? out : join(folder, ".checkpoints"), { recursive: true });
      await plant(folder);
      const result = await runCli(exportArgs(world.mock, path, out));
      expect(result.code, `${name}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(/not (a folder|a regular file) \(a link/);
      expect(await readFile(target, "utf8"), name).toBe("precious\n");
    }
    expect((await ledger(world.mock)).requests, "nothing was sent").toBe(0);
  });

  test("a link planted while the export runs is not followed (O_NOFOLLOW): the run stops with exit 2 and the target stays untouched", async () => {
    await world.mock.reset();
    const { path, creators } = await creatorsFile(world.dir.path, 2, "midway");
    const out = `${world.dir.path}/midway`;
    const target = `${world.dir.path}/midway-target.txt`;
    await writeFile(target, "precious\n");
    await holdRequests(world.mock, 1);
    const running = spawnCli(exportArgs(world.mock, path, out, ["--concurrency", "1"]));
    await untilHeld(world.mock);
    await symlink(target, join(out, platform, fileName(creators[1] as string)));
    await release(world.mock);
    const result = await running.result;
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/stopped: cannot write .* \(it is a link, which the export does not follow\)|is not a regular file \(a link/);
    expect(await readFile(target, "utf8")).toBe("precious\n");
    expect((await readManifest(out)).stoppedBecause).toBe("outputFolder");
  });
});

describe("a checkpoint that is not one", () => {
  test("stops the run before any call (exit 2), naming its file and what to do", async () => {
    await world.mock.reset();
    const { path, creators } = await creatorsFile(world.dir.path, 2, "garbled");
    const out = `${world.dir.path}/garbled`;
    const file = join(out, platform, ".checkpoints", fileName(creators[0] as string).replace(".jsonl", ".json"));
    await mkdir(join(out, platform, ".checkpoints"), { recursive: true });
    await writeFile(file, '{"creator":"garbled.0","bytes":-1}\n');
    const result = await runCli(exportArgs(world.mock, path, out));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`content-scraper: ${file} is not a checkpoint of garbled.0: remove it to export that creator again from its first page\n`);
    expect((await ledger(world.mock)).requests).toBe(0);
  });
});

describe("finished files are checked against their checkpoints", () => {
  test("a file deleted or cut is exported again, one that grew is cut back, and the manifest counts the re-exports", async () => {
    await world.mock.reset();
    await world.reference.reset();
    const { path, creators } = await creatorsFile(world.dir.path, 4, "tampered");
    const out = `${world.dir.path}/tampered`;
    const whole = `${world.dir.path}/tampered-reference`;
    expect((await runCli(exportArgs(world.reference, path, whole))).code).toBe(0);
    const clean = await readManifest(whole);
    expect((await runCli(exportArgs(world.mock, path, out))).code).toBe(0);
    const [deleted, cut, grown] = creators.map((creator) => join(out, platform, fileName(creator)));
    await unlink(deleted as string);
    await truncate(cut as string, 100);
    await appendFile(grown as string, '{"kind":"post","post":{"id":"forged","platform":"shortvideo"}}\n');
    const before = await ledger(world.mock);

    const rerun = await runCli(exportArgs(world.mock, path, out));
    expect(rerun.code, rerun.stderr).toBe(0);
    const manifest = await readManifest(out);
    expect(manifest.reexported).toBe(2);
    expect(manifest.entries.map((entry) => entry.reexports ?? 0)).toEqual([1, 1, 0, 0]);
    expect(await postsByFile(out)).toEqual(await postsByFile(whole));
    // Only the two lost files were bought again: their profiles and pages.
    const bought = (await ledger(world.mock)).requests - before.requests;
    expect(bought).toBe(clean.entries.slice(0, 2).reduce((sum, entry) => sum + 1 + entry.pages, 0));
    expect(manifest.creditsCharged).toBe((await ledger(world.mock)).credits);
    expect(manifest.pages).toBe((await ledger(world.mock)).postsPages);
  });
});
