import { mkdir, open, readFile, truncate } from "node:fs/promises";
import { dirname } from "node:path";
import type { Checkpoint, CheckpointStore, RunAccount } from "./checkpoint.js";

/** A local export's journal: its checkpoints, and the credits its runs were charged for answers they never received. */
export interface Journal extends CheckpointStore {
  /**
   * What the balance should be after the runs so far, had nothing they sent gone unseen: the last run that learnt its
   * start, less what it and the runs after it saw charged (`expected` is `undefined` when no run learnt its start).
   * `undefined` when there is nothing to reconcile: no run yet, or the last one ended with nothing in flight.
   */
  readonly previous: { expected: number | undefined } | undefined;
  /** Credits charged for answers lost to killed runs, as recorded so far. */
  readonly unseenCredits: number;
  /** Runs whose start could not be reconciled with the one before (a top-up, or another user of the key, between them). */
  readonly unreconciledRuns: number;
  recordUnseen(run: string, credits: number | undefined): Promise<void>;
  /** The run ended with no request in flight: the next has nothing to reconcile with it. */
  endRun(run: string): Promise<void>;
}

type Line = Checkpoint | { unseen: number | null; run: string } | { ended: string };

/**
 * Checkpoints on one machine: an append-only journal, one JSON line per saved checkpoint, the last line of a creator
 * winning. An append is one `write` on an `O_APPEND` descriptor, so a SIGKILL leaves at worst a torn last line, which
 * `openJournal` cuts off. (The writes are not fsynced: a killed process loses nothing the kernel already has; a power
 * cut may lose the last pages, which a rerun fetches again.)
 */
export async function openJournal(path: string): Promise<Journal> {
  await mkdir(dirname(path), { recursive: true });
  const latest = new Map<string, Checkpoint>();
  // Every run's latest account, in the order the runs came, and the runs that ended with nothing in flight.
  const runs = new Map<string, RunAccount>();
  const ended = new Set<string>();
  let unseenCredits = 0;
  let unreconciledRuns = 0;
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return "";
    throw error;
  });
  const complete = text.lastIndexOf("\n") + 1;
  if (complete < text.length) await truncate(path, Buffer.byteLength(text.slice(0, complete)));
  for (const line of text.slice(0, complete).split("\n")) {
    if (line === "") continue;
    const entry = JSON.parse(line) as Line;
    if ("ended" in entry) {
      ended.add(entry.ended);
      continue;
    }
    if ("unseen" in entry) {
      if (entry.unseen === null) unreconciledRuns++;
      else unseenCredits += entry.unseen;
      continue;
    }
    latest.set(entry.creator, entry);
    if (entry.run) runs.set(entry.run.id, entry.run);
  }
  const file = await open(path, "a");
  let writing: Promise<unknown> = Promise.resolve();
  const append = (entry: Line) => {
    const line = `${JSON.stringify(entry)}\n`;
    const write = writing.then(() => file.write(line));
    writing = write;
    return write.then(() => undefined);
  };
  return {
    previous: expectedBalance([...runs.values()], ended),
    get unseenCredits() {
      return unseenCredits;
    },
    get unreconciledRuns() {
      return unreconciledRuns;
    },
    recordUnseen: (run, credits) => {
      if (credits === undefined) unreconciledRuns++;
      else unseenCredits += credits;
      return append({ unseen: credits ?? null, run });
    },
    endRun: (run) => append({ ended: run }),
    load: async (creator) => latest.get(creator),
    save: (checkpoint) => {
      latest.set(checkpoint.creator, checkpoint);
      return append(checkpoint);
    },
    all: async () => [...latest.values()],
    close: async () => {
      await writing;
      await file.close();
    },
  };
}

/** The balance the runs leave if nothing they sent went unseen (see `Journal.previous`), from the newest run back. */
function expectedBalance(runs: RunAccount[], ended: Set<string>): { expected: number | undefined } | undefined {
  const last = runs.at(-1);
  if (!last || ended.has(last.id)) return undefined;
  let chargedSince = 0;
  for (const run of runs.reverse()) {
    if (run.start !== undefined) return { expected: run.start - run.charged - chargedSince };
    chargedSince += run.charged;
  }
  return { expected: undefined };
}
