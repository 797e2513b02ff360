import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { hostname } from "node:os";
import type { OutputFolder } from "./folder.js";
import { OutputFolderError } from "./folder.js";

/** The lock file of a platform's output folder. */
export const lockFile = ".lock";

/** Who holds a folder's lock: the process (and when it started, against a reused pid), its machine, and a token. */
export interface LockHolder {
  pid: number;
  host: string;
  /** The process's start, as the kernel counts it (Linux), so a pid reused by another process is not taken for the holder. */
  processStart?: string | undefined;
  /** Unique to this holding: a fleet's epoch, which its workers find in the folder they are given. */
  token: string;
  since: string;
}

/** A folder's lock, held: `release()` removes it (only while it is still this holder's). */
export interface FolderLock {
  readonly holder: LockHolder;
  release(): Promise<void>;
}

/** The start time of a process (field 22 of /proc/<pid>/stat), where the system tells it. */
async function processStart(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  // The command name (field 2) is in parentheses and may hold spaces: count from after it.
  return stat?.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
}

/** Whether the holder's process is gone (on this machine; another machine's holder is taken to be alive). */
async function isGone(holder: Pick<LockHolder, "pid" | "host" | "processStart">): Promise<boolean> {
  if (holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
  return holder.processStart !== undefined && holder.processStart !== (await processStart(holder.pid));
}

function parseHolder(text: string | undefined): LockHolder | undefined {
  try {
    const holder = JSON.parse(text ?? "") as Partial<LockHolder>;
    if (typeof holder.pid === "number" && typeof holder.host === "string" && typeof holder.token === "string") return holder as LockHolder;
  } catch {}
  return undefined;
}

/** The folder's lock holder, or `undefined` when nobody holds it (or the lock file is unreadable). */
export async function readLock(folder: OutputFolder): Promise<LockHolder | undefined> {
  return parseHolder(await folder.read(lockFile));
}

/**
 * The folder's lock is no longer the one this process works under: another run took the folder (a laptop run took a
 * fleet's whose coordinator died), or the run ended. Nothing more may be written there.
 */
export class FolderTakenError extends Error {
  override name = "FolderTakenError";
}

/**
 * Fences the folder's writes on its lock: before each one, in the same synchronous step, the lock on disk must still
 * hold `token` (a fleet's epoch). A run that takes the folder over fences every worker of the fleet it replaced,
 * whatever their Redis says.
 */
export function fenceOnLock(folder: OutputFolder, token: string): void {
  folder.fence(() => {
    if (parseHolder(folder.readNow(lockFile))?.token !== token) throw new FolderTakenError(`${folder.path} is no longer this export's (its lock is another run's, or gone)`);
  });
}

/**
 * Takes the folder's lock, so that one run at a time writes it: a second run is refused (`OutputFolderError`, exit 2)
 * while the holder lives. A lock whose process is gone (killed) is taken over: one taker per stale lock (a marker
 * file named after its token, created exclusively), which removes it and takes the lock as if it were free.
 */
export async function lockFolder(folder: OutputFolder): Promise<FolderLock> {
  const holder: LockHolder = { pid: process.pid, host: hostname(), processStart: await processStart(process.pid), token: randomUUID(), since: new Date().toISOString() };
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await folder.createExclusive(lockFile, JSON.stringify(holder))) {
      return {
        holder,
        release: async () => {
          try {
            if ((await readLock(folder))?.token === holder.token) await folder.remove(lockFile);
          } catch (error) {
            // A folder that changed under the run (moved, swapped for a link) keeps the lock where it is: stale once
            // this process is gone, the next run there takes it over.
            if (!(error instanceof OutputFolderError)) throw error;
          }
        },
      };
    }
    const current = await readLock(folder);
    if (current && !(await isGone(current))) {
      const where = current.host === hostname() ? `process ${current.pid}` : `process ${current.pid} on ${current.host}`;
      throw new OutputFolderError(
        `${folder.path} is in use by another run (${where}, since ${current.since}): wait for it to end` +
          (current.host === hostname() ? "" : `, or remove ${folder.file(lockFile)} if that machine's run is gone`),
      );
    }
    await takeOver(folder, current);
  }
  throw new OutputFolderError(`${folder.path}: could not take its lock (other runs keep taking it)`);
}

/** Removes a stale lock (or an unreadable one), unless another taker got to it first. */
async function takeOver(folder: OutputFolder, stale: LockHolder | undefined): Promise<void> {
  const marker = `${lockFile}.${stale?.token ?? "unreadable"}.takeover`;
  if (!(await folder.createExclusive(marker, String(process.pid)))) {
    // Another run is taking this lock over; it is gone itself if its marker outlived it.
    const taker = Number(await folder.read(marker));
    if (Number.isSafeInteger(taker) && (await isGone({ pid: taker, host: hostname() }))) await folder.remove(marker);
    return;
  }
  try {
    if ((await readLock(folder))?.token === stale?.token) await folder.remove(lockFile);
  } finally {
    await folder.remove(marker);
  }
}
