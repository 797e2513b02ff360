import type { Platform, ScraperClient, ScraperMeta } from "@content-scraper/client";
import { randomUUID } from "node:crypto";
import type { Reporter, Totals } from "../progress.js";
import { type Checkpoint, type CheckpointStore, isSettled, type RunAccount } from "./checkpoint.js";
import { type ExportContext, exportCreator, stopsExport } from "./creator.js";

/** Stops an export: the first request finishes the pages in flight; `abort` cancels them (a second Ctrl-C). */
export interface Interruption {
  readonly stopping: () => boolean;
  readonly signal: AbortSignal;
  readonly interrupted: () => boolean;
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
    interrupted: () => signals > 0,
    signal: controller.signal,
    dispose: () => {
      process.off("SIGINT", handler);
      process.off("SIGTERM", handler);
    },
  };
}

export interface RunOptions {
  client: ScraperClient;
  platform: Platform;
  out: string;
  creators: string[];
  concurrency: number;
  store: CheckpointStore;
  reporter: Reporter;
  interruption: Interruption;
  maxCredits?: number | undefined;
  /**
   * Reconcile this run with the one before through the service's balance (local exports): the run starts one creator
   * at a time until its first success tells the balance, then `record`s what the previous run was charged for answers
   * it never received (`undefined` when the balance rose: a top-up, or another user of the key, in between).
   */
  reconcile?:
    | { previous: { expected: number | undefined } | undefined; record(run: string, unseen: number | undefined): Promise<void>; end(run: string): Promise<void> }
    | undefined;
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
 * Exports the creators not yet settled, `concurrency` at a time, until all are or the export must stop. Answers why
 * it stopped: `complete`, `interrupted`, or the reason of the creator that stopped it (`maxCredits`, a 402's code, …).
 */
export async function runExport(options: RunOptions): Promise<string> {
  const { client, store, reporter, interruption } = options;
  const saved = new Map((await store.all()).map((checkpoint) => [checkpoint.creator, checkpoint]));
  const pending = options.creators.filter((creator) => !isSettled(saved.get(creator)));
  const chargedBefore = [...saved.values()].reduce((sum, checkpoint) => sum + checkpoint.creditsCharged, 0);
  let stopReason: string | undefined;
  const totals: Totals = { done: options.creators.length - pending.length, posts: 0, creditsCharged: 0, pacingWaitMs: 0 };
  // Each creator's latest checkpoint of this run, so the totals move by what each page added.
  const latest = new Map<string, Checkpoint>(saved);
  reporter.start(options.creators.length, totals.done);
  const { reconcile } = options;
  const account: RunAccount = { id: randomUUID(), start: undefined, charged: 0 };
  const balanceKnown = gate();
  if (!reconcile) balanceKnown.open();
  let chargedBeforeBalance = 0;
  let recorded: Promise<void> = Promise.resolve();

  const context: ExportContext = {
    client,
    platform: options.platform,
    out: options.out,
    store,
    signal: interruption.signal,
    stopping: () => stopReason !== undefined || interruption.stopping(),
    account: reconcile
      ? (checkpoint, charged, meta) => {
          account.charged += charged;
          if (account.start === undefined) {
            if (!meta) chargedBeforeBalance += charged;
            else {
              // One answer at a time so far: the balance before this run's first charge is exact.
              account.start = meta.creditsRemaining + meta.creditsCharged + chargedBeforeBalance;
              const { previous } = reconcile;
              // No earlier run that learnt its start, or a balance that rose since: what was lost is unknown.
              const unseen = previous?.expected === undefined ? undefined : previous.expected - account.start;
              if (previous) recorded = reconcile.record(account.id, unseen !== undefined && unseen >= 0 ? unseen : undefined);
              balanceKnown.open();
            }
          }
          return { ...checkpoint, run: { ...account } };
        }
      : undefined,
    onProgress: (checkpoint: Checkpoint, meta: ScraperMeta | undefined) => {
      const before = latest.get(checkpoint.creator);
      latest.set(checkpoint.creator, checkpoint);
      totals.creditsCharged += checkpoint.creditsCharged - (before?.creditsCharged ?? 0);
      totals.posts += checkpoint.posts - (before?.posts ?? 0);
      totals.pacingWaitMs = client.usage.pacingWaitMs;
      if (meta) {
        totals.balance = meta.creditsRemaining;
        totals.rateLimit = meta.rateLimit;
      }
      if (options.maxCredits !== undefined) totals.budgetLeft = Math.max(0, options.maxCredits - chargedBefore - totals.creditsCharged);
      reporter.progress(checkpoint, meta, totals);
    },
  };

  let next = 0;
  const worker = async (index: number) => {
    // The first worker goes alone until the balance is known (or it runs out of creators).
    if (index > 0) await Promise.race([balanceKnown.opened, firstDone]);
    while (next < pending.length && !context.stopping()) {
      const creator = pending[next++] as string;
      const checkpoint = await exportCreator(context, creator);
      if (isSettled(checkpoint)) totals.done += 1;
      if (stopsExport(checkpoint)) stopReason ??= checkpoint.stoppedBecause;
      reporter.creatorEnded(checkpoint, totals);
    }
  };
  const firstDone = worker(0);
  await Promise.all([firstDone, ...Array.from({ length: Math.min(options.concurrency, pending.length) - 1 }, (_, index) => worker(index + 1))]);
  await recorded;
  // Every request of the run was answered (a killed run never gets here): the next run has nothing to find.
  await reconcile?.end(account.id);
  return stopReason ?? (interruption.interrupted() ? "interrupted" : "complete");
}
