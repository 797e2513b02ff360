import { type OutputFolder, OutputFolderError } from "./folder.js";

/** The runs journal of a platform's folder: one JSON line per event of a run, appended by the run holding the lock. */
export const runsFile = ".runs.jsonl";

/**
 * Why a run's losses could not be found from the balance: no balance from before it was ever learnt (it was killed
 * during its first request, the export's first), the balance rose in between (a top-up, another user of the key), or
 * a line of the journal could not be read. `unrecorded`: a journal line of an earlier version, which did not say.
 */
export type UnreconciledCause = "noEarlierBalance" | "balanceRose" | "unreadableLine" | "unrecorded";

/** A reconciliation that failed: its cause, and the most the export's credits may be short by for it (`null`: unknown). */
export interface Unreconciled {
  cause: UnreconciledCause;
  creditsAtMost: number | null;
}

type Line =
  | { run: string; begin: true }
  | { run: string; point: { balance: number; total: number } }
  | { run: string; unseen: number | null; cause?: UnreconciledCause; atMost?: number }
  | { run: string; probe: number }
  | { run: string; ended: true }
  | { run: string; wide: true };

/**
 * An export's account with the service's balance. With the export as the key's only user, the balance plus the
 * credits the export accounts for (`total`: what its checkpoints saw charged, plus what earlier reconciliations found)
 * stays constant. A run learns the balance at a quiet moment (one answer, nothing else in flight: a "point"); if a run
 * since the last point may have lost answers (it was killed, or a fleet worker died), the sum dropped by exactly the
 * credits charged for them: those are `unseen`, and the export's credits include them. A sum that rose (a top-up, or
 * another user of the key) cannot be reconciled, nor a loss before any point (no balance from before it exists, and
 * every reading of it is an answer that costs a call): the run is counted in `unreconciled`, with its cause and, where
 * it has one, a bound, instead of guessed.
 */
export interface Runs {
  readonly unseenCredits: number;
  /** Credits spent on balance checks (a run that completes the export while some runs await the balance asks for one profile again, alone). */
  readonly probeCredits: number;
  readonly unreconciled: readonly Unreconciled[];
  readonly unreconciledRuns: number;
  /**
   * Runs since the last point that did not end with nothing in flight (killed, aborted, or a fleet run whose worker
   * died): what they lost is not found until a run learns the balance again.
   */
  readonly awaitingBalance: number;
  /** A balance was learnt (the journal holds a point): what any run loses from here on can be found. */
  readonly known: boolean;
  /** What the export accounts for, given what its checkpoints saw charged. */
  total(checkpointCredits: number): number;
  begin(run: string): Promise<void>;
  /**
   * A quiet moment of `run`: the balance, and the export's `total` then. `dirty`: `run` itself may have lost answers.
   * `callCredits`: what the answer that told the balance was charged (one call, at the account's rate).
   */
  point(run: string, balance: number, total: number, dirty: boolean, callCredits: number): Promise<void>;
  probe(run: string, charged: number): Promise<void>;
  /**
   * `run` sends several requests at once before any balance is known (a fleet's workers, after a first phase whose
   * every answer failed): what it may lose, if killed, has no bound a later balance could give.
   */
  wide(run: string): Promise<void>;
  /** The run ended with nothing in flight: it lost nothing. */
  end(run: string): Promise<void>;
  close(): Promise<void>;
}

/** Why the export's credits may be short, and by how much at most, in words (`undefined` when they are exact). */
export function shortfall(unreconciled: readonly Unreconciled[]): string | undefined {
  if (unreconciled.length === 0) return undefined;
  const bounded = unreconciled.every((entry) => entry.creditsAtMost !== null);
  const most = unreconciled.reduce((sum, entry) => sum + (entry.creditsAtMost ?? 0), 0);
  const why: Record<UnreconciledCause, string> = {
    noEarlierBalance: "a run was killed before any run of this export had learnt the balance (during its first request), so no earlier balance can tell whether what it had in flight was charged",
    balanceRose: "the balance rose between a killed run and the next (a top-up, or another user of the key), so what the killed run lost cannot be told",
    unreadableLine: `a line of ${runsFile} could not be read`,
    unrecorded: "an earlier version's run could not be reconciled with the balance, and did not record why",
  };
  const causes = [...new Set(unreconciled.map((entry) => why[entry.cause]))].join("; ");
  return `creditsCharged in the manifest may be short by ${bounded ? `at most ${most} credit(s)` : "an unknown amount"}: ${causes}`;
}

/** Opens the folder's runs journal; a torn last line (a kill in the middle of a write) is cut off. */
export async function openRuns(folder: OutputFolder): Promise<Runs> {
  const text = (await folder.read(runsFile)) ?? "";
  const complete = text.lastIndexOf("\n") + 1;
  if (complete < text.length) await folder.truncate(runsFile, Buffer.byteLength(text.slice(0, complete)));
  let unseenCredits = 0;
  let probeCredits = 0;
  const unreconciled: Unreconciled[] = [];
  let last: { run: string; balance: number; total: number } | undefined;
  // The runs since the last point (its own included), those of them that ended with nothing in flight, and those that
  // sent requests side by side before any balance was known.
  let since = new Set<string>();
  const ended = new Set<string>();
  const wide = new Set<string>();
  const apply = (line: Line) => {
    if ("begin" in line) since.add(line.run);
    else if ("ended" in line) ended.add(line.run);
    else if ("wide" in line) wide.add(line.run);
    else if ("probe" in line) probeCredits += line.probe;
    else if ("unseen" in line) {
      if (line.unseen === null) unreconciled.push({ cause: line.cause ?? "unrecorded", creditsAtMost: line.atMost ?? null });
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
      unreconciled.push({ cause: "unreadableLine", creditsAtMost: null });
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
    get unreconciled() {
      return unreconciled;
    },
    get unreconciledRuns() {
      return unreconciled.length;
    },
    get awaitingBalance() {
      return [...since].filter((run) => !ended.has(run)).length;
    },
    get known() {
      return last !== undefined;
    },
    total: (checkpointCredits) => checkpointCredits + unseenCredits + probeCredits,
    begin: (run) => record({ run, begin: true }),
    point: async (run, balance, total, dirty, callCredits) => {
      const lostRuns = [...since].filter((other) => other !== run && !ended.has(other));
      let unseen = 0;
      if ((dirty || lostRuns.length > 0) && last) {
        const drop = last.balance + last.total - (balance + total);
        await record(drop >= 0 ? { run, unseen: drop } : { run, unseen: null, cause: "balanceRose" });
        unseen = Math.max(0, drop);
      } else if (dirty || lostRuns.length > 0) {
        // No balance from before those runs: each learnt none, so each went one request at a time (a run learns the
        // balance from its first answer, alone) and lost at most that one call, unless it sent several at once.
        const bounded = !dirty && !lostRuns.some((other) => wide.has(other));
        await record({ run, unseen: null, cause: "noEarlierBalance", ...(bounded ? { atMost: lostRuns.length * callCredits } : {}) });
      }
      await record({ run, point: { balance, total: total + unseen } });
    },
    probe: (run, charged) => record({ run, probe: charged }),
    wide: (run) => record({ run, wide: true }),
    // An end that cannot be written (a full disk) leaves the run to the next as one that may have lost answers: the
    // next balance finds that it lost nothing.
    end: (run) =>
      record({ run, ended: true }).catch((error: unknown) => {
        if (!(error instanceof OutputFolderError)) throw error;
      }),
    close: () => file.close(),
  };
}
