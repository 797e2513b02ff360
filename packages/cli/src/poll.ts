import { randomUUID } from "node:crypto";
import type { Platform } from "@content-scraper/client";
import { type ConnectionOptions, checkPlatform, scraperClient } from "./client.js";
import { type Creator, creatorOf, readCreators } from "./creators.js";
import { exitCodes, exportExitCode } from "./exit-codes.js";
import type { Checkpoint } from "./export/checkpoint.js";
import { pollCreator } from "./export/creator.js";
import { OutputFolder } from "./export/folder.js";
import { buildManifest, type Manifest, type PollSummary, readManifest, saveManifest } from "./export/manifest.js";
import { onInterrupt, type RunResult, runExport } from "./export/run.js";
import { checkpointCredits, openExportState } from "./export/state.js";
import type { Io } from "./io.js";
import { manifestWhere, type Reporter } from "./progress.js";
import { UsageError } from "./usage-error.js";

export interface PollArguments extends ConnectionOptions {
  platform: Platform;
  out: string;
  /** Poll only these creators (a creators file). */
  creators?: string | undefined;
  concurrency: number;
  maxCredits?: number | undefined;
  json: boolean;
  /** `--allow-shared-out` (`FolderOptions.shared`). */
  allowSharedOut?: boolean | undefined;
}

/** The export's creators, as its manifest names them. */
function exportedCreators(manifest: Manifest): Creator[] {
  return manifest.entries.map((entry) => ({ ...creatorOf(entry.names?.[0] ?? entry.creator), names: entry.names, file: entry.file }));
}

/** Poll's lines (or `--json` events): one per page (JSON), one per creator, and the summary. */
function pollReporter(io: Io, json: boolean, before: Map<string, Checkpoint>, summary: PollSummary): Reporter {
  const print = (line: string, event: Record<string, unknown>) => (json ? io.stdout(`${JSON.stringify(event)}\n`) : io.stderr(`${line}\n`));
  return {
    start: () => {},
    progress: () => {},
    page: (page) => {
      if (json) print("", { event: "page", ...page });
    },
    creatorEnded: (checkpoint) => {
      const previous = before.get(checkpoint.creator) as Checkpoint;
      const newPosts = checkpoint.posts - previous.posts;
      const pages = checkpoint.pages - previous.pages;
      // An error's charge is in the checkpoint too, not only the pages'.
      const creditsCharged = checkpoint.creditsCharged - previous.creditsCharged;
      Object.assign(summary, {
        creators: summary.creators + 1,
        pages: summary.pages + pages,
        newPosts: summary.newPosts + newPosts,
        creditsCharged: summary.creditsCharged + creditsCharged,
        failed: summary.failed + (checkpoint.error ? 1 : 0),
      });
      const outcome = checkpoint.error ? `failed ${checkpoint.error.code}` : `${newPosts} new posts`;
      const unfinished = checkpoint.poll ? " (poll unfinished: the next one goes on from there)" : "";
      print(`${checkpoint.creator}: ${outcome}, ${pages} pages, ${creditsCharged} credits${unfinished}`, {
        event: "creator",
        creator: checkpoint.creator,
        file: checkpoint.file,
        newPosts,
        pages,
        creditsCharged,
        unfinished: checkpoint.poll !== undefined,
        error: checkpoint.error,
      });
    },
    note: (message) => print(message, { event: "note", message }),
    finish: (_manifest, path) => {
      const line = `poll ${summary.stoppedBecause}: ${summary.creators} creators, ${summary.pages} pages, ${summary.newPosts} new posts, ${summary.creditsCharged} credits charged, ${summary.failed} failed. ${manifestWhere(path)}`;
      print(line, { event: "finish", manifest: path ?? null, ...summary });
    },
  };
}

/**
 * `content-scraper poll`: for every creator the export finished, walks its catalog from page one until it reaches a
 * post its file holds (or the catalog ends), appending the posts that appeared since, and accounts for it in the
 * manifest. Under `--max-credits`, a poll cut short is saved where it stands and goes on at the next poll, so no
 * new post is skipped.
 */
export async function poll(args: PollArguments, io: Io): Promise<number> {
  const client = scraperClient(args, args.maxCredits);
  checkPlatform(client, args.platform);
  const peek = await OutputFolder.open(args.out, args.platform, io.redactor, { owner: false, shared: args.allowSharedOut });
  const manifest = await readManifest(peek).finally(() => peek.close());
  if (!manifest) throw new UsageError(`--out: ${peek.path} holds no export (no manifest.json): run content-scraper export first`);
  const creators = exportedCreators(manifest);
  const only = args.creators ? new Set((await readCreators(args.creators)).map((creator) => creator.identity)) : undefined;
  const state = await openExportState(args.out, args.platform, creators, io, { shared: args.allowSharedOut });
  try {
    const polled = creators.filter((creator) => state.checkpoints.get(creator.identity)?.status === "done" && (!only || only.has(creator.identity)));
    const summary: PollSummary = { at: new Date().toISOString(), stoppedBecause: "complete", creators: 0, pages: 0, newPosts: 0, creditsCharged: 0, failed: 0 };
    const reporter = pollReporter(io, args.json, state.checkpoints, summary);
    const interruption = onInterrupt(reporter);
    const run = randomUUID();
    await state.runs.begin(run);
    let result: RunResult;
    try {
      const account = { runs: state.runs, run, totalBefore: state.runs.total(checkpointCredits(state.checkpoints.values())) };
      const work = (context: Parameters<typeof pollCreator>[0], creator: Creator) => pollCreator(context, creator, state.checkpoints.get(creator.identity) as Checkpoint);
      result = await runExport({ ...args, client, folder: state.folder, store: state.store, creators: polled, work, settledBefore: 0, reporter, interruption, account });
    } finally {
      interruption.dispose();
    }
    // As an export's run: clean unless aborted, or a write failed (an answer's charge not written).
    if (!interruption.signal.aborted && !state.folder.failed) await state.runs.end(run);
    summary.stoppedBecause = result.stoppedBecause;
    if (result.problem && result.stoppedBecause !== "maxCredits") reporter.note(`stopped: ${result.problem}`);
    const build = (checkpoints: Map<string, Checkpoint>) => buildManifest(args.platform, creators, checkpoints, manifest.stoppedBecause, state.runs, summary);
    if ((await saveManifest(state, build, creators, reporter)).path === undefined) return exitCodes.usage;
    if (result.stoppedBecause !== "complete") return exportExitCode(result.stoppedBecause, summary.failed);
    return summary.failed > 0 ? exitCodes.failed : exitCodes.ok;
  } finally {
    await state.close();
  }
}
