import { mkdir, open, readFile, truncate } from "node:fs/promises";
import { dirname } from "node:path";
import type { Checkpoint, CheckpointStore } from "./checkpoint.js";

/**
 * Checkpoints on one machine: an append-only journal, one JSON line per saved checkpoint, the last line of a creator
 * winning. An append is one `write` on an `O_APPEND` descriptor, so a SIGKILL leaves at worst a torn last line, which
 * `openJournal` cuts off. (The writes are not fsynced: a killed process loses nothing the kernel already has; a power
 * cut may lose the last pages, which a rerun fetches again.)
 */
export async function openJournal(path: string): Promise<CheckpointStore> {
  await mkdir(dirname(path), { recursive: true });
  const latest = new Map<string, Checkpoint>();
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return "";
    throw error;
  });
  const complete = text.lastIndexOf("\n") + 1;
  if (complete < text.length) await truncate(path, Buffer.byteLength(text.slice(0, complete)));
  for (const line of text.slice(0, complete).split("\n")) {
    if (line === "") continue;
    const checkpoint = JSON.parse(line) as Checkpoint;
    latest.set(checkpoint.creator, checkpoint);
  }
  const file = await open(path, "a");
  let writing: Promise<unknown> = Promise.resolve();
  return {
    load: async (creator) => latest.get(creator),
    save: (checkpoint) => {
      latest.set(checkpoint.creator, checkpoint);
      const line = `${JSON.stringify(checkpoint)}\n`;
      const write = writing.then(() => file.write(line));
      writing = write;
      return write.then(() => undefined);
    },
    all: async () => [...latest.values()],
    close: async () => {
      await writing;
      await file.close();
    },
  };
}
