import { join } from "node:path";
import type { Platform } from "@content-scraper/client";
import { type ConnectionOptions, checkPlatform, scraperClient } from "../client.js";
import { readCreators } from "../creators.js";
import { exportExitCode } from "../exit-codes.js";
import { createReporter, type ReporterKind } from "../progress.js";
import { openJournal } from "./journal.js";
import { buildManifest, writeManifest } from "./manifest.js";
import { onInterrupt, runExport } from "./run.js";

export interface ExportArguments extends ConnectionOptions {
  platform: Platform;
  creators: string;
  out: string;
  concurrency: number;
  maxCredits?: number | undefined;
  reporter: ReporterKind;
}

/** The journal of a platform's export: beside its files, so the output folder is the whole state. */
export function journalPath(out: string, platform: string): string {
  return join(out, platform, ".checkpoints.jsonl");
}

/** `content-scraper export` on this machine: checkpoints in a journal file, pacing and budget in memory. */
export async function exportLocal(args: ExportArguments): Promise<number> {
  const creators = await readCreators(args.creators);
  // Key, address and platform checked before anything is written.
  checkPlatform(scraperClient(args), args.platform);
  const store = await openJournal(journalPath(args.out, args.platform));
  try {
    // The budget counts what earlier runs of this export were charged.
    const chargedBefore = (await store.all()).reduce((sum, checkpoint) => sum + checkpoint.creditsCharged, store.unseenCredits);
    const budget = args.maxCredits === undefined ? undefined : Math.max(0, args.maxCredits - chargedBefore);
    const client = scraperClient(args, budget);
    const reporter = await createReporter(args.reporter);
    const interruption = onInterrupt(reporter);
    let stoppedBecause: string;
    try {
      const reconcile = { previous: store.previous, record: store.recordUnseen, end: store.endRun };
      stoppedBecause = await runExport({ ...args, client, creators, store, reporter, interruption, reconcile });
    } finally {
      interruption.dispose();
    }
    const unseen = { credits: store.unseenCredits, unreconciledRuns: store.unreconciledRuns };
    const manifest = buildManifest(args.platform, creators, await store.all(), stoppedBecause, unseen);
    reporter.finish(manifest, await writeManifest(args.out, manifest));
    return exportExitCode(stoppedBecause, manifest.creators.failed);
  } finally {
    await store.close();
  }
}
