import type { OutputFolder } from "./folder.js";

/** The runs journal of a platform's folder: one JSON line per event of a run, appended by the run holding the lock. */
export const runsFile = ".runs.jsonl";

type Line =
  | { run: string; begin: true }
  | { run: string; point: { balance: number; total: number } }
  | { run: string; unseen: number | null }
  | { run: string; probe: number }
  | { run: string; ended: true };

/**
 * An export's account with the service's balance. With the export as the key's only user, the balance plus the
 * credits the export accounts for (`total`: what its checkpoints saw charged, plus what earlier reconciliations found)
 * stays constant. A run learns the balance at a quiet moment (one answer, nothing else in flight: a "point"); if a run
 * since the last point may have lost answers (it was killed, or a fleet worker died), the sum dropped by exactly the
 * credits charged for them: those are `unseen`, and the export's credits include them. A sum that rose (a top-up, or
 * another user of the key) cannot be reconciled: the run is counted in `unreconciledRuns` instead of guessed.
 */
export interface Runs {
  readonly unseenCredits: number;
  /** Credits spent on balance checks (a run that completes the export while some runs await the balance asks for one profile again, alone). */
  readonly probeCredits: number;
  readonly unreconciledRuns: number;
  /**
   * Runs since the last point that did not end with nothing in flight (killed, aborted, or a fleet run whose worker
   * died): what they lost is not found until a run learns the balance again.
   */
  readonly awaitingBalance: number;
  /** What the export accounts for, given what its checkpoints saw charged. */
  total(checkpointCredits: number): number;
  begin(run: string): Promise<void>;
  /** A quiet moment of `run`: the balance, and the export's `total` then. `dirty`: `run` itself may have lost answers. */
  point(run: string, balance: number, total: number, dirty: boolean): Promise<void>;
  probe(run: string, charged: number): Promise<void>;
  /** The run ended with nothing in flight: it lost nothing. */
  end(run: string): Promise<void>;
  close(): Promise<void>;
}

/** Opens the folder's runs journal; a torn last line (a kill in the middle of a write) is cut off. */
export async function openRuns(folder: OutputFolder): Promise<Runs> {
  const text = (await folder.read(runsFile)) ?? "";
  const complete = text.lastIndexOf("\n") + 1;
  if (complete < text.length) await folder.truncate(runsFile, Buffer.byteLength(text.slice(0, complete)));
  let unseenCredits = 0;
  let probeCredits = 0;
  let unreconciledRuns = 0;
  let last: { run: string; balance: number; total: number } | undefined;
  // The runs since the last point (its own included), and those of them that ended with nothing in flight.
  let since = new Set<string>();
  const ended = new Set<string>();
  const apply = (line: Line) => {
    if ("begin" in line) since.add(line.run);
    else if ("ended" in line) ended.add(line.run);
    else if ("probe" in line) probeCredits += line.probe;
    else if ("unseen" in line) {
      if (line.unseen === null) unreconciledRuns++;
      else unseenCredits += line.unseen;
    } else {
      last = { run: line.run, ...line.point };
      since = new Set([line.run]);
    }
  };
  for (const line of text.slice(0, complete).split("\n")) {
    if (line === "") continue;
    try {
      apply(JSON.parse(line) as Line);
    } catch {
      // A line that is not the journal's: the account it held is lost, and said so.
      unreconciledRuns++;
    }
  }
  const file = await folder.append(runsFile);
  const record = async (line: Line) => {
    apply(line);
    await file.write(`${JSON.stringify(line)}\n`);
  };
  return {
    get unseenCredits() {
      return unseenCredits;
    },
    get probeCredits() {
      return probeCredits;
    },
    get unreconciledRuns() {
      return unreconciledRuns;
    },
    get awaitingBalance() {
      return [...since].filter((run) => !ended.has(run)).length;
    },
    total: (checkpointCredits) => checkpointCredits + unseenCredits + probeCredits,
    begin: (run) => record({ run, begin: true }),
    point: async (run, balance, total, dirty) => {
      const lost = dirty || [...since].some((other) => other !== run && !ended.has(other));
      let unseen = 0;
      if (lost && last) {
        const drop = last.balance + last.total - (balance + total);
        await record({ run, unseen: drop >= 0 ? drop : null });
        unseen = Math.max(0, drop);
      } else if (lost) {
        // Runs before any point may have lost answers, and there is no earlier balance to tell.
        await record({ run, unseen: null });
      }
      await record({ run, point: { balance, total: total + unseen } });
    },
    probe: (run, charged) => record({ run, probe: charged }),
    end: (run) => record({ run, ended: true }),
    close: () => file.close(),
  };
}
