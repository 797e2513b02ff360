import type { Platform, ScraperClient, ScraperMeta } from "@content-scraper/client";
import type { Creator } from "../creators.js";
import type { Reporter, Totals } from "../progress.js";
import { type Checkpoint, type CheckpointStore, isSettled } from "./checkpoint.js";
import { type ExportContext, exportCreator, stopsRun } from "./creator.js";
import { type OutputFolder, OutputFolderError } from "./folder.js";
import type { Runs } from "./runs.js";

/** Stops an export: the first request finishes the pages in flight; `abort` cancels them (a second Ctrl-C). */
export interface Interruption {
  readonly stopping: () => boolean;
  readonly signal: AbortSignal;
  dispose(): void;
}

/** SIGINT and SIGTERM once: finish the pages in flight and checkpoint. Twice: abort them. */
export function onInterrupt(reporter: Reporter): Interruption {
  const controller = new AbortController();
  let signals = 0;
  const handler = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals === 1) reporter.note(`${signal}: finishing the pages in flight, then stopping (again to abort them)`);
    else controller.abort(new Error(`${signal} twice`));
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  return {
    stopping: () => signals > 0,
    signal: controller.signal,
    dispose: () => {
      process.off("SIGINT", handler);
      process.off("SIGTERM", handler);
    },
  };
}

/** A run's account with the service's balance (see `Runs`): the run's id, and what the export accounted for before it. */
export interface RunAccount {
  runs: Runs;
  run: string;
  totalBefore: number;
}

/** One creator's processing: its checkpoint after, and why it stopped (which may stop the run: `stopsRun`). */
export type CreatorWork = (context: ExportContext, creator: Creator) => Promise<{ checkpoint: Checkpoint; stoppedBecause?: string | undefined }>;

/** An export's work on a creator: its catalog to the end. */
export const exportWork: CreatorWork = async (context, creator) => {
  const checkpoint = await exportCreator(context, creator);
  return { checkpoint, stoppedBecause: checkpoint.stoppedBecause };
};

export interface RunOptions {
  client: ScraperClient;
  platform: Platform;
  folder: OutputFolder;
  store: CheckpointStore;
  /** The creators to work on, in order. */
  creators: Creator[];
  /** What to do with each creator; an export by default. */
  work?: CreatorWork | undefined;
  /** Creators of the export settled before this run (for the display). */
  settledBefore: number;
  concurrency: number;
  reporter: Reporter;
  interruption: Interruption;
  /** What `--max-credits` left this run, for the display. */
  budget?: number | undefined;
  /**
   * Reconcile the export with the service's balance: the run goes one creator at a time until its first success
   * tells the balance with nothing else in flight (a point of `Runs`), then at full concurrency.
   */
  account?: RunAccount | undefined;
  /** Stop as soon as the balance is known (a fleet's coordinator, before it hands the rest to its workers). */
  untilBalance?: boolean | undefined;
}

export interface RunResult {
  /** `complete`, `interrupted`, or the reason of the creator that stopped the run (`maxCredits`, a 402's code, `notTheApi`, …). */
  stoppedBecause: string;
  /** The message of a configuration stop (`notTheApi`, `outputFolder`). */
  problem?: string | undefined;
}

/** Resolves once `open()` is called: the gate the other workers wait at while the first one learns the balance. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/**
 * Exports the creators not yet settled, `concurrency` at a time, until all are or the export must stop. Local exports
 * run it over every creator; a fleet's coordinator runs it until the balance is known, its workers one job at a time.
 */
export async function runExport(options: RunOptions): Promise<RunResult> {
  const { client, store, reporter, interruption, account } = options;
  let stopReason: string | undefined;
  let problem: string | undefined;
  const totals: Totals = { done: options.settledBefore, posts: 0, creditsCharged: 0, pacingWaitMs: 0 };
  const latest = new Map<string, Checkpoint>();
  const balanceKnown = gate();
  let known = !account;
  if (known) balanceKnown.open();
  let chargedBeforeBalance = 0;
  let recorded: Promise<void> = Promise.resolve();

  const context: ExportContext = {
    client,
    platform: options.platform,
    folder: options.folder,
    store,
    signal: interruption.signal,
    // A write that failed (a full disk) stops every creator before its next request, not after its own failure.
    stopping: () => stopReason !== undefined || options.folder.failed !== undefined || interruption.stopping() || (options.untilBalance === true && known),
    onCharge: (charged, meta) => {
      if (known || !account) return;
      chargedBeforeBalance += charged;
      if (!meta) return;
      // One answer at a time so far: the balance after this one, with nothing else in flight.
      known = true;
      // A journal that cannot be written (a full disk) stops the run through the folder's failure, not here.
      recorded = account.runs.point(account.run, meta.creditsRemaining, account.totalBefore + chargedBeforeBalance, false, meta.creditsCharged).catch((error: unknown) => {
        if (!(error instanceof OutputFolderError)) throw error;
      });
      balanceKnown.open();
    },
    onSaved: (checkpoint: Checkpoint, meta: ScraperMeta | undefined) => {
      const before = latest.get(checkpoint.creator);
      latest.set(checkpoint.creator, checkpoint);
      if (before) {
        totals.creditsCharged += checkpoint.creditsCharged - before.creditsCharged;
        totals.posts += checkpoint.posts - before.posts;
      }
      totals.pacingWaitMs = client.usage.pacingWaitMs;
      if (meta) {
        totals.balance = meta.creditsRemaining;
        totals.rateLimit = meta.rateLimit;
      }
      if (options.budget !== undefined) totals.budgetLeft = Math.max(0, options.budget - totals.creditsCharged);
      reporter.progress(totals);
    },
    onPage: (page) => reporter.page(page),
  };

  const pending = options.creators;
  const work = options.work ?? exportWork;
  let next = 0;
  const worker = async (index: number) => {
    // The first worker goes alone until the balance is known (or it runs out of creators).
    if (index > 0) await Promise.race([balanceKnown.opened, firstDone]);
    while (next < pending.length && !context.stopping()) {
      const creator = pending[next++] as Creator;
      let outcome: Awaited<ReturnType<CreatorWork>>;
      try {
        outcome = await work(context, creator);
      } catch (error) {
        if (!(error instanceof OutputFolderError)) throw error;
        stopReason ??= "outputFolder";
        problem ??= error.message;
        return;
      }
      const { checkpoint, stoppedBecause } = outcome;
      if (isSettled(checkpoint)) totals.done += 1;
      if (stopsRun(stoppedBecause)) {
        stopReason ??= stoppedBecause;
        problem ??= checkpoint.error?.message;
      }
      reporter.creatorEnded(checkpoint, totals);
    }
  };
  const firstDone = worker(0);
  const others = Array.from({ length: Math.max(0, Math.min(options.concurrency, pending.length) - 1) }, (_, index) => worker(index + 1));
  await Promise.all([firstDone, ...others]);
  await recorded;
  // The first write that failed stops the run, whatever else stopped creators meanwhile: its file is the one to name.
  if (options.folder.failed) [stopReason, problem] = ["outputFolder", options.folder.failed.message];
  const stoppedBecause = stopReason ?? (interruption.stopping() || (options.untilBalance && known && next < pending.length) ? "interrupted" : "complete");
  return { stoppedBecause, problem };
}
