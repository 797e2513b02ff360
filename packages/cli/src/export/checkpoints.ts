import { join } from "node:path";
import type { Creator } from "../creators.js";
import { type Checkpoint, type CheckpointStore, parseCheckpoint } from "./checkpoint.js";
import { checkpointsFolder, type OutputFolder, OutputFolderError } from "./folder.js";

/** A creator's checkpoint file, beside its data file. */
const checkpointFile = (file: string) => join(checkpointsFolder, file.replace(/\.jsonl$/, ".json"));

/**
 * The checkpoints of an export: one file per creator under `<out>/<platform>/.checkpoints/`, replaced whole at every
 * save (a new file renamed over the old), so a kill leaves the last one or the one before, never a torn one. One writer
 * per creator at a time (the run's lock, a fleet job's claim), any number of creators at once, from any process.
 */
export function diskCheckpoints(folder: OutputFolder): CheckpointStore & { all(creators: Creator[]): Promise<Map<string, Checkpoint>> } {
  const load = async (creator: Creator) => {
    const path = checkpointFile(creator.file);
    const text = await folder.read(path);
    if (text === undefined) return undefined;
    const checkpoint = parseCheckpoint(text);
    if (!checkpoint || checkpoint.creator !== creator.identity) {
      throw new OutputFolderError(`${folder.file(path)} is not a checkpoint of ${creator.identity}: remove it to export that creator again from its first page`);
    }
    return checkpoint;
  };
  return {
    load,
    save: (checkpoint) => folder.replace(checkpointFile(checkpoint.file), `${JSON.stringify(checkpoint)}\n`),
    /** The checkpoints of these creators, by identity (creators never started have none). */
    all: async (creators) => {
      const saved = new Set(await folder.list(checkpointsFolder));
      const found = new Map<string, Checkpoint>();
      for (const creator of creators) {
        if (!saved.has(checkpointFile(creator.file).slice(checkpointsFolder.length + 1))) continue;
        const checkpoint = await load(creator);
        if (checkpoint) found.set(creator.identity, checkpoint);
      }
      return found;
    },
  };
}
