import { randomUUID } from "node:crypto";
import type { Platform } from "@content-scraper/client";
import { type ConnectionOptions, checkPlatform, scraperClient } from "../client.js";
import { type Creator, readCreators } from "../creators.js";
import { exitCodes, exportExitCode } from "../exit-codes.js";
import type { Io } from "../io.js";
import { createReporter, type Reporter, type ReporterKind } from "../progress.js";
import { checkBalance } from "./balance-check.js";
import { type Checkpoint, isSettled } from "./checkpoint.js";
import { buildManifest, saveManifest } from "./manifest.js";
import { onInterrupt, type RunResult, runExport } from "./run.js";
import { checkpointCredits, type ExportState, openExportState } from "./state.js";

export interface ExportArguments extends ConnectionOptions {
  platform: Platform;
  creators: string;
  out: string;
  concurrency: number;
  maxCredits?: number | undefined;
  reporter: ReporterKind;
  /** `--allow-shared-out` (`FolderOptions.shared`). */
  allowSharedOut?: boolean | undefined;
}

/** What `--max-credits` leaves this run: the export's budget less what its earlier runs were charged. */
export function runBudget(maxCredits: number | undefined, state: ExportState): number | undefined {
  if (maxCredits === undefined) return undefined;
  return Math.max(0, maxCredits - state.runs.total(checkpointCredits(state.checkpoints.values())));
}

/** The creators of the list not settled yet, in order. */
export function pendingCreators(creators: Creator[], state: ExportState): Creator[] {
  return creators.filter((creator) => !isSettled(state.checkpoints.get(creator.identity)));
}

/** Writes the manifest from the checkpoints on disk, tells the reporter, and answers the exit status. */
export async function finishExport(state: ExportState, platform: Platform, creators: Creator[], result: Pick<RunResult, "stoppedBecause" | "problem">, reporter: Reporter): Promise<number> {
  if (result.problem && result.stoppedBecause !== "maxCredits") reporter.note(`stopped: ${result.problem}`);
  const build = (checkpoints: Map<string, Checkpoint>) => buildManifest(platform, creators, checkpoints, result.stoppedBecause, state.runs);
  const { manifest, path } = await saveManifest(state, build, creators, reporter);
  // A manifest that could not be written leaves the folder behind the checkpoints: an output-folder problem.
  return manifest && path ? exportExitCode(result.stoppedBecause, manifest.creators.failed) : exitCodes.usage;
}

/** `content-scraper export` on this machine: checkpoints on disk, pacing and budget in memory. */
export async function exportLocal(args: ExportArguments, io: Io): Promise<number> {
  const creators = await readCreators(args.creators);
  // Key, address and platform checked before anything is written, the folder before anything is sent.
  checkPlatform(scraperClient(args), args.platform);
  const state = await openExportState(args.out, args.platform, creators, io, { shared: args.allowSharedOut });
  try {
    const budget = runBudget(args.maxCredits, state);
    const client = scraperClient(args, budget);
    const reporter = await createReporter(args.reporter, io);
    const pending = pendingCreators(creators, state);
    reporter.start(creators.length, creators.length - pending.length);
    const interruption = onInterrupt(reporter);
    const run = randomUUID();
    await state.runs.begin(run);
    let result: RunResult;
    try {
      const account = { runs: state.runs, run, totalBefore: state.runs.total(checkpointCredits(state.checkpoints.values())) };
      const settledBefore = creators.length - pending.length;
      result = await runExport({ ...args, client, folder: state.folder, store: state.store, creators: pending, settledBefore, reporter, interruption, budget, account });
    } finally {
      interruption.dispose();
    }
    // Every request of the run was answered (a killed run never gets here; a second Ctrl-C aborts what was in flight),
    // and counted, unless a write failed: its page or checkpoint, not written, took an answer's charge with it, which
    // the next run's balance finds.
    if (!interruption.signal.aborted && !state.folder.failed) await state.runs.end(run);
    // An earlier run's answers lost in flight, not found by this run (it learnt no balance: every answer it had failed).
    if (result.stoppedBecause === "complete" && state.runs.awaitingBalance > 0) {
      await checkBalance({ client, platform: args.platform, state, creators, reporter, run, dirty: false });
    }
    return await finishExport(state, args.platform, creators, result, reporter);
  } finally {
    await state.close();
  }
}
