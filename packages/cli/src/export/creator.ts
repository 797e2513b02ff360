import {
  type ErrorCode,
  type Platform,
  type PostsPage,
  postKey,
  ScraperAbortError,
  ScraperApiError,
  ScraperBudgetError,
  type ScraperClient,
  ScraperInputError,
  type ScraperMeta,
  ScraperResponseError,
  ScraperStoreError,
  ScraperTimeoutError,
  type WalkResume,
} from "@content-scraper/client";
import type { Creator } from "../creators.js";
import { type Checkpoint, type CheckpointStore, freshCheckpoint, isSettled } from "./checkpoint.js";
import { type OutputFolder, OutputFolderError } from "./folder.js";
import { FolderTakenError } from "./lock.js";
import { type CreatorOutput, type ExportLine, openCreatorOutput } from "./output.js";
import { CreatorTakenError } from "./taken.js";

/** What one page added to a creator's file: for `--json` page events and the progress display. */
export interface PageReport {
  creator: string;
  file: string;
  /** The page's number in this creator's export (its polls count on). */
  page: number;
  /** Posts written from this page (a post already in the file is not written again). */
  posts: number;
  creditsCharged: number;
  requestId: string;
  /** `export`, or `poll`. */
  walk: "export" | "poll";
}

/** What every creator's export shares in one process. */
export interface ExportContext {
  client: ScraperClient;
  platform: Platform;
  folder: OutputFolder;
  store: CheckpointStore;
  /**
   * Resolves while this processing holds the creator, throws `CreatorTakenError` once another took it (a fleet's claim):
   * awaited before every write of the creator's file, as the store is fenced before every checkpoint.
   */
  holding?: (() => Promise<void>) | undefined;
  /** Aborts requests in flight (a second Ctrl-C, the coordinator gone). */
  signal: AbortSignal;
  /** Set when the export must stop: each creator finishes the page in flight, checkpoints, and returns. */
  stopping: () => boolean;
  /** Called after each saved checkpoint, with the answer it saved (if any). */
  onSaved?: ((checkpoint: Checkpoint, meta: ScraperMeta | undefined) => void) | undefined;
  /** Called after each page is saved. */
  onPage?: ((page: PageReport) => void) | undefined;
  /**
   * Called with each answer's charge just before the checkpoint that counts it is saved, in the order the answers
   * came: the run's account with the balance (`meta` is a success's, `undefined` for an error's charge).
   */
  onCharge?: ((charged: number, meta: ScraperMeta | undefined) => void) | undefined;
}

/** Answers about the account, not the creator: no credits left (402) or the key refused (401). */
const accountCodes: readonly string[] = ["INSUFFICIENT_SCRAPER_CREDITS", "UNAUTHORIZED"] satisfies ErrorCode[];

export function isAccountCode(code: string | undefined): boolean {
  return code !== undefined && accountCodes.includes(code);
}

/**
 * Why a run stops for its configuration, not a creator: the base address answered something that is not the API (a
 * framework's 404, a proxy's page, an envelope that lies about money), or the output folder failed. Exit status 2.
 */
export const configurationStops: readonly string[] = ["notTheApi", "outputFolder"];

/** Why a creator stopped, when it stops the whole run: an account answer, the budget spent, or the configuration. */
export function stopsRun(reason: string | undefined): boolean {
  return reason === "maxCredits" || isAccountCode(reason) || configurationStops.includes(reason ?? "");
}

/** A creator's processing in progress: its checkpoint, and its save (which reports and accounts). */
interface Progress {
  current(): Checkpoint;
  save(next: Checkpoint, meta?: ScraperMeta, charged?: number): Promise<void>;
}

/**
 * Exports one creator from its checkpoint: the profile, then every page of posts, each page appended to the file and
 * checkpointed before the next is asked for. Never throws for an API answer: the checkpoint says how it ended.
 */
export async function exportCreator(context: ExportContext, creator: Creator): Promise<Checkpoint> {
  const saved = await context.store.load(creator);
  if (saved && isSettled(saved)) return saved;
  const resumed = saved?.status === "running" ? { resumes: (saved.resumes ?? 0) + 1 } : {};
  const start: Checkpoint = { ...(saved ?? freshCheckpoint(creator)), status: "running", stoppedBecause: undefined, error: undefined, ...resumed };
  const { checkpoint } = await withOutput(
    context,
    creator,
    start,
    async (output, progress) => {
      await progress.save(progress.current());
      await exportWalk(context, creator, output, progress);
    },
    (_before, end) => end,
  );
  return checkpoint;
}

/** How a poll of a creator ended: `end` (it reached what the file holds), `interrupted`, or why it stopped. */
export interface PollOutcome {
  checkpoint: Checkpoint;
  stoppedBecause: string;
}

/**
 * Polls a creator whose export is done: walks its catalog from page one (or where an unfinished poll stands) and
 * appends the posts its file does not hold, until a page holds one it does (the rest it has) or the catalog ends. The
 * creator stays done whatever happens; an unfinished poll is saved in its checkpoint (`poll`) and goes on next time.
 */
export async function pollCreator(context: ExportContext, creator: Creator, saved: Checkpoint): Promise<PollOutcome> {
  let reached = false;
  const { checkpoint, end } = await withOutput(
    context,
    creator,
    { ...saved, error: undefined },
    async (output, progress) => {
      // An unfinished poll goes on first; a fresh one from page one then catches what appeared meanwhile.
      if (saved.poll && !(await pollWalk(context, creator, output, progress, saved.poll))) return;
      reached = await pollWalk(context, creator, output, progress, {});
    },
    (before, end) => ({ ...before, creditsCharged: end.creditsCharged, error: end.error }),
  );
  return { checkpoint, stoppedBecause: end?.stoppedBecause ?? (reached ? "end" : "interrupted") };
}

/**
 * Runs `work` on the creator's file, opened at the checkpoint (started over if the file no longer matches it). After
 * an error, saves what `settle` makes of the checkpoint before it and the one `ended` gives, and answers that `end`.
 */
async function withOutput(
  context: ExportContext,
  creator: Creator,
  start: Checkpoint,
  work: (output: CreatorOutput, progress: Progress) => Promise<void>,
  settle: (before: Checkpoint, end: Checkpoint) => Checkpoint,
): Promise<{ checkpoint: Checkpoint; end?: Checkpoint | undefined }> {
  let checkpoint = start;
  let output = await openCreatorOutput(context.folder, creator.file, checkpoint.bytes, context.holding);
  if (!output) {
    // The file lost what the checkpoint counted: start this creator over rather than leave a hole in it.
    // What it was charged and the pages it fetched stay counted: they were bought.
    const { creditsCharged, pages, resumes } = checkpoint;
    checkpoint = { ...freshCheckpoint(creator), creditsCharged, pages, resumes, reexports: (checkpoint.reexports ?? 0) + 1 };
    output = (await openCreatorOutput(context.folder, creator.file, 0, context.holding)) as CreatorOutput;
  }
  const progress: Progress = {
    current: () => checkpoint,
    save: async (next, meta, charged = 0) => {
      context.onCharge?.(charged, meta);
      await context.store.save(next);
      checkpoint = next;
      context.onSaved?.(checkpoint, meta);
    },
  };
  try {
    await work(output, progress);
    return { checkpoint };
  } catch (error) {
    if (error instanceof CreatorTakenError) return { checkpoint };
    // The folder is another run's now: not even this creator's end may be saved there.
    if (error instanceof FolderTakenError) throw error;
    const end = ended(checkpoint, error);
    try {
      await progress.save(settle(checkpoint, end), undefined, end.creditsCharged - checkpoint.creditsCharged);
    } catch (saving) {
      if (!(saving instanceof CreatorTakenError)) throw saving;
    }
    return { checkpoint, end };
  } finally {
    await output.close();
    await context.store.close(creator.file);
  }
}

async function exportWalk(context: ExportContext, creator: Creator, output: CreatorOutput, progress: Progress): Promise<void> {
  const { client, platform, signal } = context;
  if (!progress.current().profile) {
    const { data, meta } = await client.profile(platform, creator.handle, { signal });
    const line: ExportLine = { kind: "profile", platform, creator: creator.identity, profile: data, requestId: meta.requestId };
    const bytes = await output.append([line]);
    const checkpoint = progress.current();
    await progress.save({ ...checkpoint, profile: true, bytes, creditsCharged: checkpoint.creditsCharged + meta.creditsCharged }, meta, meta.creditsCharged);
  }
  if (progress.current().walk.stoppedBecause === "end") return progress.save({ ...progress.current(), status: "done", stoppedBecause: "end" });
  if (context.stopping()) return progress.save({ ...progress.current(), status: "stopped", stoppedBecause: "interrupted" });
  const walk = client.walkPages(platform, creator.handle, { resume: progress.current().walk, signal });
  for await (const page of walk) {
    const ends = walk.state.stoppedBecause === "end";
    await savePage(context, creator, output, progress, page, "export", {
      walk: resumeOf(walk.state),
      ...(ends ? { status: "done", stoppedBecause: "end" } : {}),
    });
    if (!ends && context.stopping()) return progress.save({ ...progress.current(), status: "stopped", stoppedBecause: "interrupted" });
  }
}

/** One poll walk from `from`; answers whether it reached the posts the file holds (or the catalog's end). */
async function pollWalk(context: ExportContext, creator: Creator, output: CreatorOutput, progress: Progress, from: WalkResume): Promise<boolean> {
  const walk = context.client.walkPages(context.platform, creator.handle, { resume: from, signal: context.signal });
  for await (const page of walk) {
    const reached = walk.state.stoppedBecause === "end" || page.items.some((post) => output.seen.has(postKey(post)));
    await savePage(context, creator, output, progress, page, "poll", { poll: reached ? undefined : resumeOf(walk.state) });
    if (reached) return true;
    if (context.stopping()) return false;
  }
  return false;
}

/** What a saved walk state needs to resume (`taken` is empty between pages). */
const resumeOf = (state: WalkResume): WalkResume => ({ cursor: state.cursor, ...(state.stoppedBecause === "end" ? { stoppedBecause: "end" } : {}) });

/** Appends a page's new posts and saves the checkpoint that counts them, with `changes`. */
async function savePage(
  context: ExportContext,
  creator: Creator,
  output: CreatorOutput,
  progress: Progress,
  page: PostsPage<Platform>,
  walk: PageReport["walk"],
  changes: Partial<Checkpoint>,
): Promise<void> {
  const lines: ExportLine[] = [];
  for (const post of page.items) {
    const key = postKey(post);
    if (output.seen.has(key)) continue;
    output.seen.add(key);
    lines.push({ kind: "post", platform: context.platform, creator: creator.identity, post });
  }
  const bytes = await output.append(lines);
  const checkpoint = progress.current();
  const charged = page.meta.creditsCharged;
  const next = { ...checkpoint, ...changes, bytes, pages: checkpoint.pages + 1, posts: checkpoint.posts + lines.length, creditsCharged: checkpoint.creditsCharged + charged };
  await progress.save(next, page.meta, charged);
  context.onPage?.({ creator: creator.identity, file: creator.file, page: next.pages, posts: lines.length, creditsCharged: charged, requestId: page.meta.requestId, walk });
}

/** Whether an error is an answer that is not the API's: no envelope (a framework's or a proxy's page), or a lying one. */
function isNotTheApi(error: unknown): boolean {
  if (error instanceof ScraperResponseError) return true;
  return error instanceof ScraperApiError && error.code === undefined;
}

/** The checkpoint after an error: what it cost, why it stopped, and whether a rerun should try again. */
function ended(checkpoint: Checkpoint, error: unknown): Checkpoint {
  const message = error instanceof Error ? error.message : String(error);
  // A timeout may have been billed and is worth another try: a failure a rerun retries, from this checkpoint.
  if (error instanceof ScraperTimeoutError) return { ...checkpoint, status: "failed", stoppedBecause: "TIMEOUT", error: { code: "TIMEOUT", message }, final: false };
  // Aborted mid-request: left `running`, since that page may have been charged with its answer lost.
  if (error instanceof ScraperAbortError) return { ...checkpoint, stoppedBecause: "interrupted" };
  if (error instanceof ScraperBudgetError) return { ...checkpoint, status: "stopped", stoppedBecause: "maxCredits" };
  // Redis out of reach (a fleet): nothing was sent; the creator goes on when it answers.
  if (error instanceof ScraperStoreError) return { ...checkpoint, status: "stopped", stoppedBecause: "storeUnavailable", error: { code: "STORE_UNAVAILABLE", message } };
  if (error instanceof OutputFolderError) return { ...checkpoint, status: "stopped", stoppedBecause: "outputFolder", error: { code: "OUTPUT_FOLDER", message } };
  if (isNotTheApi(error)) {
    const { status, requestId } = error as ScraperApiError | ScraperResponseError;
    return { ...checkpoint, status: "stopped", stoppedBecause: "notTheApi", error: { code: "NOT_THE_API", status, requestId, message } };
  }
  if (error instanceof ScraperApiError) {
    const code = error.code ?? `HTTP_${error.status}`;
    const stopped = isAccountCode(code);
    return {
      ...checkpoint,
      status: stopped ? "stopped" : "failed",
      creditsCharged: checkpoint.creditsCharged + (error.creditsCharged ?? 0),
      stoppedBecause: code,
      error: { code, status: error.status, requestId: error.requestId, message: error.message },
      final: !stopped && !error.retryable,
    };
  }
  // A handle the client refuses to send (an empty one): it would be refused again.
  if (error instanceof ScraperInputError) return { ...checkpoint, status: "failed", stoppedBecause: "INVALID_HANDLE", error: { code: "INVALID_HANDLE", message }, final: true };
  const code = error instanceof Error ? error.name : "Error";
  return { ...checkpoint, status: "failed", stoppedBecause: code, error: { code, message }, final: false };
}
