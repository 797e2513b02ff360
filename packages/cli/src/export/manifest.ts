import type { Creator } from "../creators.js";
import type { Reporter } from "../progress.js";
import type { Checkpoint } from "./checkpoint.js";
import { type OutputFolder, OutputFolderError } from "./folder.js";
import { type Runs, shortfall, type Unreconciled } from "./runs.js";
import type { ExportState } from "./state.js";

/** The manifest's file in the platform's folder. */
export const manifestFile = "manifest.json";

/** One creator's line of the manifest: the names it was given, its file, how its export ended and what it cost. */
export interface ManifestEntry {
  /** The creator's identity: its handle without `@`, in lower case. */
  creator: string;
  /** The lines of the creators file that named it (`maya.bakes`, `@Maya.Bakes`, …). */
  names: string[];
  /** Its file in the platform's folder. */
  file: string;
  status: Checkpoint["status"] | "pending";
  pages: number;
  posts: number;
  creditsCharged: number;
  stoppedBecause?: string | undefined;
  error?: Checkpoint["error"];
  resumes?: number | undefined;
  reexports?: number | undefined;
}

/** What the last `poll` did. */
export interface PollSummary {
  at: string;
  stoppedBecause: string;
  creators: number;
  pages: number;
  newPosts: number;
  creditsCharged: number;
  failed: number;
}

/** The export's account: one entry per creator of the list, and the totals. */
export interface Manifest {
  platform: string;
  /**
   * `complete`, or why the export stopped: `maxCredits`, `INSUFFICIENT_SCRAPER_CREDITS`, `UNAUTHORIZED`,
   * `interrupted`, `notTheApi`, `outputFolder`, `coordinationLost`.
   */
  stoppedBecause: string;
  creators: { total: number; done: number; failed: number; stopped: number; pending: number };
  pages: number;
  posts: number;
  /**
   * What the service charged the export, across all its runs and polls: the `X-Scraper-Credits-Charged` of every
   * answer it received, plus `creditsUnseen` and `creditsProbing`.
   */
  creditsCharged: number;
  /**
   * Credits charged for answers that killed runs (or fleet workers) never received, found from the balance the service
   * reports (see the README's "Killed at any moment").
   */
  creditsUnseen: number;
  /**
   * Credits spent learning the balance at the end of a run that completed the export while answers lost in flight were
   * unfound (one profile, alone).
   */
  creditsProbing: number;
  /**
   * Runs whose losses could not be reconciled that way: `creditsCharged` may then be short. Each is in `unreconciled`
   * with its cause and the most it may be short by.
   */
  unreconciledRuns: number;
  /**
   * Why each such run could not be reconciled (`noEarlierBalance`: killed during the export's first request, before
   * any balance was known; `balanceRose`: a top-up or another user of the key between a kill and the next run;
   * `unreadableLine`), and the most `creditsCharged` may be short by for it (`null`: unknown).
   */
  unreconciled: Unreconciled[];
  /**
   * Runs that may have lost answers in flight (killed, aborted, a fleet worker died) since a run last learnt the
   * balance: `creditsCharged` is short by what they lost until one does (the next run, at its first success).
   */
  runsAwaitingBalance: number;
  /** Creators a run found mid-page (the one before was killed): each may have had one page fetched again. */
  resumedMidPage: number;
  /** Finished creators whose files no longer matched their checkpoints, and were exported again. */
  reexported: number;
  lastPoll?: PollSummary | undefined;
  entries: ManifestEntry[];
}

export function buildManifest(platform: string, creators: Creator[], checkpoints: Map<string, Checkpoint>, stoppedBecause: string, runs: Runs, lastPoll?: PollSummary): Manifest {
  const entries = creators.map((creator): ManifestEntry => {
    const { identity, names, file } = creator;
    const checkpoint = checkpoints.get(identity);
    if (!checkpoint) return { creator: identity, names, file, status: "pending", pages: 0, posts: 0, creditsCharged: 0 };
    const { status, pages, posts, creditsCharged, stoppedBecause: reason, error, resumes, reexports } = checkpoint;
    return { creator: identity, names, file, status, pages, posts, creditsCharged, stoppedBecause: reason, error, resumes, reexports };
  });
  const count = (status: ManifestEntry["status"]) => entries.filter((entry) => entry.status === status).length;
  const sum = (field: "pages" | "posts" | "creditsCharged" | "resumes" | "reexports") => entries.reduce((total, entry) => total + (entry[field] ?? 0), 0);
  return {
    platform,
    stoppedBecause,
    creators: { total: entries.length, done: count("done"), failed: count("failed"), stopped: count("stopped"), pending: count("pending") + count("running") },
    pages: sum("pages"),
    posts: sum("posts"),
    creditsCharged: runs.total(sum("creditsCharged")),
    creditsUnseen: runs.unseenCredits,
    creditsProbing: runs.probeCredits,
    unreconciledRuns: runs.unreconciledRuns,
    unreconciled: [...runs.unreconciled],
    runsAwaitingBalance: runs.awaitingBalance,
    resumedMidPage: sum("resumes"),
    reexported: sum("reexports"),
    ...(lastPoll ? { lastPoll } : {}),
    entries,
  };
}

/** Writes the manifest whole (a new file renamed over the old); answers its path. */
export async function writeManifest(folder: OutputFolder, manifest: Manifest): Promise<string> {
  await folder.replace(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  return folder.file(manifestFile);
}

/** The manifest a run wrote last, if any (for `poll`, which keeps what the export said). */
export async function readManifest(folder: OutputFolder): Promise<Manifest | undefined> {
  try {
    return JSON.parse((await folder.read(manifestFile)) ?? "null") ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes the manifest (`build` makes it from the checkpoints on disk), tells the reporter, and says why its credits may
 * be short. A manifest that cannot be written (a full disk, the folder changed) is said instead: answers the manifest
 * and where it was written, if it was.
 */
export async function saveManifest(
  state: ExportState,
  build: (checkpoints: Map<string, Checkpoint>) => Manifest,
  creators: Creator[],
  reporter: Reporter,
): Promise<{ manifest?: Manifest | undefined; path?: string | undefined }> {
  let manifest: Manifest | undefined;
  try {
    manifest = build(await state.store.all(creators));
    const short = shortfall(manifest.unreconciled);
    if (short) reporter.note(short);
    const path = await writeManifest(state.folder, manifest);
    reporter.finish(manifest, path);
    return { manifest, path };
  } catch (error) {
    if (!(error instanceof OutputFolderError)) throw error;
    // The failure the run stopped for was told already ("stopped: …"): the same again is not repeated.
    const told = error !== state.folder.failed && error.message === state.folder.failed?.message;
    reporter.note(`the manifest was not written: ${told ? "the same reason" : error.message}`);
    if (manifest) reporter.finish(manifest, undefined);
    return { manifest };
  }
}
