import { execFileSync } from "node:child_process";
import { appendFile, chmod, chown, lstat, mkdir, readdir, readFile, rename, stat, symlink, truncate, unlink, writeFile } from "node:fs/promises";
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
      expect(result.stderr).toMatch(/^content-scraper: --out: cannot (create|open) \S+ \((ENOENT|EEXIST|ENOTDIR): [a-z ]+\)\n$/);
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

/** Every entry under `root` (links not followed): its kind, mode and owner, and a file's text. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const name of await readdir(root)) {
    const path = join(root, name);
    const stats = await lstat(path);
    const what = `${stats.isDirectory() ? "folder" : stats.isFile() ? "file" : "other"} ${(stats.mode & 0o7777).toString(8)} ${stats.uid}`;
    found[name] = stats.isFile() ? `${what} ${await readFile(path, "utf8")}` : what;
    if (stats.isDirectory()) for (const [below, value] of Object.entries(await snapshot(path))) found[`${name}/${below}`] = value;
  }
  return found;
}

/**
 * Runs an export of `args` and, while the sandbox holds its first page, swaps `<out>/<platform>` for a link to `target`
 * (the folder moved aside, as its owner could): answers how the run ended.
 */
async function exportWithSwap(args: string[], out: string, target: string) {
  await holdRequests(world.mock, 1);
  const running = spawnCli(args);
  await untilHeld(world.mock);
  await rename(join(out, platform), join(out, `${platform}.moved`));
  await symlink(target, join(out, platform));
  await release(world.mock);
  return running.result;
}

describe("files only where the user pointed", () => {
  test("the platform folder swapped mid-run for a link to another export's: the run stops with exit 2, that export untouched", async () => {
    await world.mock.reset();
    const { path } = await creatorsFile(world.dir.path, 3, "swapped");
    const other = `${world.dir.path}/swapped-other`;
    expect((await runCli(exportArgs(world.mock, path, other))).code).toBe(0);
    const before = await snapshot(other);
    const out = `${world.dir.path}/swapped`;
    const result = await exportWithSwap(exportArgs(world.mock, path, out, ["--concurrency", "1"]), out, join(other, platform));
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`${join(out, platform)} changed while the export ran \\(moved, replaced or made a link\\): nothing more is written there`));
    expect(await snapshot(other)).toEqual(before);
    // What the run wrote went into its own folder, moved aside: within --out.
    expect(Object.keys(await snapshot(join(out, `${platform}.moved`)))).toContain(fileName("swapped.0"));
  });

  test("an --out another user owns, or that others can write, is refused unless --allow-shared-out; its owner's swap to a root-only folder then stops the run, that folder untouched", async (context) => {
    if (process.getuid?.() !== 0) return context.skip("not root: the test gives a folder to nobody");
    await world.mock.reset();
    const { path } = await creatorsFile(world.dir.path, 3, "shared");
    const nobody = Number(execFileSync("id", ["-u", "nobody"], { encoding: "utf8" }));
    const out = `${world.dir.path}/shared`;
    await mkdir(out);
    await chown(out, nobody, nobody);
    const refused = await runCli(exportArgs(world.mock, path, out));
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toBe(
      `content-scraper: --out: ${out} belongs to another user (uid ${nobody}), who could swap what it holds for links: use a folder of your own, or pass --allow-shared-out to accept it\n`,
    );
    const open = `${world.dir.path}/open`;
    await mkdir(open);
    await chmod(open, 0o777);
    const writable = await runCli(exportArgs(world.mock, path, open));
    expect(writable.code, writable.stderr).toBe(2);
    expect(writable.stderr).toMatch(/--out: \S+ is writable by its group and others \(mode 777\), who could swap what it holds for links/);
    expect([await readdir(out), await readdir(open)]).toEqual([[], []]);
    expect((await ledger(world.mock)).requests, "nothing was sent").toBe(0);

    // Told by name, the run takes the shared folder; its owner swaps the export's folder for a link to root's own.
    const secret = `${world.dir.path}/root-only`;
    await mkdir(join(secret, platform), { recursive: true });
    await chmod(secret, 0o700);
    await writeFile(join(secret, platform, "manifest.json"), "root's own\n");
    const before = await snapshot(secret);
    const result = await exportWithSwap(exportArgs(world.mock, path, out, ["--allow-shared-out", "--concurrency", "1"]), out, join(secret, platform));
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/changed while the export ran \(moved, replaced or made a link\): nothing more is written there/);
    expect(await snapshot(secret)).toEqual(before);
  });

  test("files are created 0600 and folders 0700", async () => {
    await world.mock.reset();
    const { path } = await creatorsFile(world.dir.path, 2, "private");
    const out = `${world.dir.path}/private/below`;
    expect((await runCli(exportArgs(world.mock, path, out))).code).toBe(0);
    const modes = Object.values(await snapshot(`${world.dir.path}/private`)).map((entry) => entry.split(" ").slice(0, 2).join(" "));
    expect(new Set(modes)).toEqual(new Set(["folder 700", "file 600"]));
    expect(((await stat(`${world.dir.path}/private`)).mode & 0o777).toString(8)).toBe("700");
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
