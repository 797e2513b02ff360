// A full disk under --out (issue #39): a 2 MiB tmpfs fills in the middle of an export. The run stops at once with exit
// status 2, naming the file and the error; nothing more is bought (no BullMQ retry of a creator for a local write
// error); a rerun while the disk is full sends nothing; once there is room, the same command finishes the export whole,
// every credit accounted for.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmdirSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Checkpoint } from "../src/index.js";
import { afterEach, describe, expect, test } from "vitest";
import { creatorsFile, exportArgs, ledger, platform, postsByFile, readExport, readManifest, runCli } from "./harness.js";
import { fleetWorld } from "./world.js";

/** Why this machine cannot give the tests a small tmpfs (mounting one needs root), or `undefined` if it can. */
function whyNoTmpfs(): string | undefined {
  if (process.getuid?.() !== 0) return "not root: mounting a tmpfs needs root (CI runs as root)";
  const probe = mkdtempSync(join(tmpdir(), "content-scraper-tmpfs-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe], { stdio: "pipe" });
    execFileSync("umount", [probe], { stdio: "pipe" });
    return undefined;
  } catch (error) {
    return `mount -t tmpfs failed: ${String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim()}`;
  } finally {
    rmdirSync(probe);
  }
}

const noTmpfs = whyNoTmpfs();
const world = fleetWorld("disk");
const mounts: string[] = [];
afterEach(() => {
  for (const mount of mounts.splice(0)) execFileSync("umount", [mount]);
});

/** A 2 MiB tmpfs of the test's own (unmounted after it), and `resize` to give it room. */
function smallDisk(name: string) {
  const path = join(world.dir.path, name);
  mkdirSync(path);
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", path]);
  mounts.push(path);
  return { path, resize: (size: string) => execFileSync("mount", ["-o", `remount,size=${size}`, path]) };
}

/** What the checkpoints on disk account for: the answers written (profiles and pages), and the creators that failed. */
async function saved(out: string) {
  const folder = join(out, platform, ".checkpoints");
  let answers = 0;
  const failed: string[] = [];
  for (const name of await readdir(folder)) {
    const text = await readFile(join(folder, name), "utf8");
    const line = text.slice(0, text.lastIndexOf("\n")).split("\n").at(-1);
    if (!line) continue;
    const checkpoint = JSON.parse(line) as Checkpoint;
    answers += checkpoint.pages + (checkpoint.profile ? 1 : 0);
    if (checkpoint.status === "failed") failed.push(checkpoint.creator);
  }
  return { answers, failed };
}

describe.skipIf(noTmpfs !== undefined)(`a full disk under --out (a 2 MiB tmpfs)${noTmpfs ? `: skipped, ${noTmpfs}` : ""}`, () => {
  for (const shape of ["laptop", "fleet"] as const) {
    test(`${shape}: exit 2 naming the file, nothing bought past the pages in flight, nothing sent again while full, whole once there is room`, async () => {
      await world.mock.reset();
      const { path } = await creatorsFile(world.dir.path, 60, `full-${shape}`);
      const clean = await world.uninterrupted(path, `full-${shape}`);
      const disk = smallDisk(`disk-${shape}`);
      const out = join(disk.path, "export");
      // One creator at a time on a laptop: one answer in flight when the disk fills. Four slots in the fleet.
      const [extra, slots] = shape === "laptop" ? [["--concurrency", "1"], 1] : [world.fleetArgs(2, 2), 4];
      const args = exportArgs(world.mock, path, out, extra);

      const full = await runCli(args);
      expect(full.code, full.stderr).toBe(2);
      expect(full.stderr).toMatch(new RegExp(`stopped: cannot write ${join(out, platform)}/\\S+ \\(ENOSPC: no space left on device\\)`));
      const bought = (await ledger(world.mock)).requests;
      const written = await saved(out);
      // The answers in flight when the disk filled were bought and could not be written; nothing after them.
      expect(bought - written.answers).toBeLessThanOrEqual(slots);
      // A local write error is no creator's failure: none is left for a retry to buy again.
      expect(written.failed).toEqual([]);
      const manifest = await readManifest(out).catch(() => undefined);
      if (manifest) expect(manifest.stoppedBecause).toBe("outputFolder");
      else expect(full.stderr).toMatch(/the manifest was not written: cannot write \S+manifest\.json \(ENOSPC: no space left on device\)/);

      const still = await runCli(args);
      expect(still.code, still.stderr).toBe(2);
      expect(still.stderr).toMatch(new RegExp(`--out: ${join(out, platform)} has \\d+ KiB free, less than the 1 MiB an export needs .*\\(ENOSPC: no space left on device\\)`));
      expect((await ledger(world.mock)).requests, "a rerun on the full disk sent nothing").toBe(bought);

      disk.resize("16m");
      const room = await runCli(args);
      expect(room.code, room.stderr).toBe(0);
      const exported = await readExport(out);
      expect(exported.duplicates).toEqual([]);
      expect(await postsByFile(out)).toEqual(clean.files);
      const whole = await readManifest(out);
      expect(whole.creators.done).toBe(60);
      // The answers the full disk took with it are found from the balance: the manifest is the ledger's, to the credit.
      expect(whole.creditsCharged).toBe((await ledger(world.mock)).credits);
      expect([whole.unreconciledRuns, whole.runsAwaitingBalance]).toEqual([0, 0]);
    });
  }
});
