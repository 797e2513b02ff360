import { join } from "node:path";
import type { Creator } from "../creators.js";
import { type Checkpoint, type CheckpointStore, parseCheckpoint } from "./checkpoint.js";
import { type AppendFile, checkpointsFolder, type OutputFolder, OutputFolderError } from "./folder.js";

/** A creator's checkpoint file, beside its data file. */
const checkpointFile = (file: string) => join(checkpointsFolder, file.replace(/\.jsonl$/, ".json"));

/** A journal this long is written anew (one line) at its next save instead of appended to. */
export const compactAtBytes = 64 * 1024;

/**
 * The checkpoints of an export: one file per creator under `<out>/<platform>/.checkpoints/`, a journal of JSON lines,
 * the last whole line the checkpoint. Each save appends one line in one write, so a kill leaves the last save or the
 * one before it (a line cut short has no newline, and is ignored, then cut off by the writer's next save). The writer
 * keeps the journal open from its first save of a creator to `close`: a page's checkpoint is one write, where a new
 * file renamed over the old cost a create and a rename (on ext4 a rename over a file waits for the new one's blocks:
 * 156 µs against 2). Past `compactAtBytes` the writer replaces the journal by its last line (a new file renamed over
 * it), the one-line file of the version before journals, whose folders resume as they are. One writer per creator at
 * a time (the run's lock, a fleet job's claim), any number of creators at once, from any process.
 */
export function diskCheckpoints(folder: OutputFolder): CheckpointStore & { all(creators: Creator[]): Promise<Map<string, Checkpoint>> } {
  // Per journal this process loaded or saved: its bytes up to the last whole line, whether a cut-short line follows
  // them (for the writer's next save to cut off), and the writer's open file.
  const journals = new Map<string, { bytes: number; torn: boolean; file?: AppendFile | undefined }>();
  const load = async (creator: Creator) => {
    const path = checkpointFile(creator.file);
    await close(creator.file);
    const text = await folder.read(path);
    if (text === undefined) {
      journals.delete(path);
      return undefined;
    }
    const end = text.lastIndexOf("\n");
    journals.set(path, { bytes: Buffer.byteLength(text.slice(0, end + 1)), torn: end + 1 < text.length });
    // No whole line: the journal was created, and its first save cut short (before any request of the creator's).
    if (end < 0) return undefined;
    const checkpoint = parseCheckpoint(text.slice(text.lastIndexOf("\n", end - 1) + 1, end));
    if (!checkpoint || checkpoint.creator !== creator.identity) {
      throw new OutputFolderError(`${folder.file(path)} is not a checkpoint of ${creator.identity}: remove it to export that creator again from its first page`);
    }
    return checkpoint;
  };
  const save = async (checkpoint: Checkpoint) => {
    const path = checkpointFile(checkpoint.file);
    const line = `${JSON.stringify(checkpoint)}\n`;
    const journal = journals.get(path) ?? { bytes: 0, torn: false };
    if (journal.bytes >= compactAtBytes) {
      // An open file would go on writing to the journal the rename replaces.
      await close(checkpoint.file);
      await folder.replace(path, line);
      journals.set(path, { bytes: Buffer.byteLength(line), torn: false });
      return;
    }
    if (journal.torn) await folder.truncate(path, journal.bytes);
    const open = { bytes: journal.bytes, torn: false, file: journal.file ?? (await folder.append(path)) };
    journals.set(path, open);
    open.bytes += await open.file.write(line);
  };
  /** Closes the journal of the creator file `file` (of every creator, without one) this process holds open. */
  const close = async (file?: string) => {
    const closing = file === undefined ? [...journals.values()] : [journals.get(checkpointFile(file))];
    for (const journal of closing) {
      const open = journal?.file;
      if (!open) continue;
      journal.file = undefined;
      await open.close();
    }
  };
  return {
    load,
    save,
    close,
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
