import type { Creator } from "../creators.js";
import type { Io } from "../io.js";
import type { Checkpoint } from "./checkpoint.js";
import { diskCheckpoints } from "./checkpoints.js";
import { type FolderOptions, OutputFolder } from "./folder.js";
import { type FolderLock, lockFolder } from "./lock.js";
import { openRuns, type Runs } from "./runs.js";

/**
 * An export's state, as a run holding the folder's lock sees it: the files and checkpoints on disk are the truth, for
 * a laptop export and a fleet alike (Redis only hands out the creators).
 */
export interface ExportState {
  readonly folder: OutputFolder;
  readonly lock: FolderLock;
  readonly store: ReturnType<typeof diskCheckpoints>;
  readonly runs: Runs;
  /** The export's creators' checkpoints when it was opened, after the finished files were checked. */
  readonly checkpoints: Map<string, Checkpoint>;
  close(): Promise<void>;
}

/**
 * Opens the export in `<out>/<platform>` before any call: checks the folder, takes its lock (a second run is refused
 * while this one lives), and checks every finished creator's file against its checkpoint. A file that no longer
 * matches (deleted, cut, grown) puts its creator back to work: cut back to the checkpoint if it grew, exported again
 * if it lost lines (the manifest counts it in `reexports`).
 */
export async function openExportState(out: string, platform: string, creators: Creator[], io: Io, { shared }: Pick<FolderOptions, "shared"> = {}): Promise<ExportState> {
  const folder = await OutputFolder.open(out, platform, io.redactor, { owner: true, shared });
  let lock: FolderLock;
  try {
    lock = await lockFolder(folder);
  } catch (error) {
    await folder.close();
    throw error;
  }
  try {
    const store = diskCheckpoints(folder);
    const runs = await openRuns(folder);
    const checkpoints = await store.all(creators);
    for (const checkpoint of checkpoints.values()) {
      if (checkpoint.status !== "done" || (await folder.size(checkpoint.file)) === checkpoint.bytes) continue;
      const changed: Checkpoint = { ...checkpoint, status: "stopped", stoppedBecause: "fileChanged" };
      await store.save(changed);
      checkpoints.set(changed.creator, changed);
    }
    return {
      folder,
      lock,
      store,
      runs,
      checkpoints,
      close: async () => {
        await store.close();
        await runs.close();
        await lock.release();
        await folder.close();
      },
    };
  } catch (error) {
    await lock.release();
    await folder.close();
    throw error;
  }
}

/** What the checkpoints saw charged. */
export function checkpointCredits(checkpoints: Iterable<Checkpoint>): number {
  let sum = 0;
  for (const checkpoint of checkpoints) sum += checkpoint.creditsCharged;
  return sum;
}
