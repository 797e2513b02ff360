import { type ErrorCode, type Platform, postKey, ScraperAbortError, ScraperApiError, ScraperBudgetError, type ScraperClient, type ScraperMeta } from "@content-scraper/client";
import { type Checkpoint, type CheckpointStore, freshCheckpoint, isSettled } from "./checkpoint.js";
import { type CreatorOutput, creatorFile, type ExportLine, openCreatorOutput } from "./output.js";

/** What every creator's export shares in one process. */
export interface ExportContext {
  client: ScraperClient;
  platform: Platform;
  out: string;
  store: CheckpointStore;
  /** Aborts requests in flight (a second Ctrl-C, or the fleet losing its lock). */
  signal: AbortSignal;
  /** Set when the export must stop: each creator finishes the page in flight, checkpoints, and returns. */
  stopping: () => boolean;
  /** Called after each saved checkpoint, for progress. */
  onProgress?: ((checkpoint: Checkpoint, meta: ScraperMeta | undefined) => void) | undefined;
  /** Called before each checkpoint is saved, with what it adds to the credits charged and the answer's meta; answers the checkpoint to save. */
  account?: ((checkpoint: Checkpoint, charged: number, meta: ScraperMeta | undefined) => Checkpoint) | undefined;
}

/** Answers about the account, not the creator: no credits left (402) or the key refused (401). */
const accountCodes: readonly string[] = ["INSUFFICIENT_SCRAPER_CREDITS", "UNAUTHORIZED"] satisfies ErrorCode[];

export function isAccountCode(code: string | undefined): boolean {
  return code !== undefined && accountCodes.includes(code);
}

/** A creator's end that stops the whole export: an account answer, or the budget spent. */
export function stopsExport(checkpoint: Checkpoint): boolean {
  return checkpoint.stoppedBecause === "maxCredits" || isAccountCode(checkpoint.stoppedBecause);
}

/**
 * Exports one creator from its checkpoint: the profile, then every page of posts, each page appended to the file and
 * checkpointed before the next is asked for. Never throws for an API answer: the checkpoint says how it ended.
 */
export async function exportCreator(context: ExportContext, creator: string): Promise<Checkpoint> {
  const { store } = context;
  const saved = await store.load(creator);
  if (saved && isSettled(saved)) return saved;
  const resumed = saved?.status === "running" ? { resumes: (saved.resumes ?? 0) + 1 } : {};
  let checkpoint: Checkpoint = { ...(saved ?? freshCheckpoint(creator)), status: "running", stoppedBecause: undefined, error: undefined, ...resumed };
  const path = creatorFile(context.out, context.platform, creator);
  let output = await openCreatorOutput(path, checkpoint.bytes);
  if (!output) {
    // The file lost what the checkpoint counted: start this creator over rather than leave a hole in it.
    checkpoint = { ...freshCheckpoint(creator), creditsCharged: checkpoint.creditsCharged, resumes: checkpoint.resumes };
    output = (await openCreatorOutput(path, 0)) as CreatorOutput;
  }
  const save = async (next: Checkpoint, meta?: ScraperMeta) => {
    checkpoint = context.account ? context.account(next, next.creditsCharged - checkpoint.creditsCharged, meta) : next;
    await store.save(checkpoint);
    context.onProgress?.(checkpoint, meta);
  };
  try {
    await save(checkpoint);
    await walkCreator(context, creator, output, () => checkpoint, save);
  } catch (error) {
    await save(ended(checkpoint, error));
  } finally {
    await output.close();
  }
  return checkpoint;
}

async function walkCreator(
  context: ExportContext,
  creator: string,
  output: CreatorOutput,
  current: () => Checkpoint,
  save: (next: Checkpoint, meta?: ScraperMeta) => Promise<void>,
): Promise<void> {
  const { client, platform, signal } = context;
  if (!current().profile) {
    const { data, meta } = await client.profile(platform, creator, { signal });
    const line: ExportLine = { kind: "profile", platform, creator, profile: data, requestId: meta.requestId };
    const bytes = await output.append([line]);
    const checkpoint = current();
    await save({ ...checkpoint, profile: true, bytes, creditsCharged: checkpoint.creditsCharged + meta.creditsCharged }, meta);
  }
  if (current().pages > 0 && current().cursor === undefined) {
    await save({ ...current(), status: "done", stoppedBecause: "end" });
    return;
  }
  if (context.stopping()) return save({ ...current(), status: "stopped", stoppedBecause: "interrupted" });
  const walk = client.walkPages(platform, creator, { cursor: current().cursor, signal });
  for await (const page of walk) {
    const lines: ExportLine[] = [];
    for (const post of page.items) {
      const key = postKey(post);
      if (output.seen.has(key)) continue;
      output.seen.add(key);
      lines.push({ kind: "post", platform, creator, post });
    }
    const bytes = await output.append(lines);
    const checkpoint = current();
    const cursor = walk.state.cursor;
    await save(
      {
        ...checkpoint,
        cursor,
        bytes,
        pages: checkpoint.pages + 1,
        posts: checkpoint.posts + lines.length,
        creditsCharged: checkpoint.creditsCharged + page.meta.creditsCharged,
        ...(cursor === undefined ? { status: "done", stoppedBecause: "end" } : {}),
      },
      page.meta,
    );
    if (cursor !== undefined && context.stopping()) return save({ ...current(), status: "stopped", stoppedBecause: "interrupted" });
  }
}

/** The checkpoint after an error: what it cost, its code, and whether a rerun should try again. */
function ended(checkpoint: Checkpoint, error: unknown): Checkpoint {
  // Aborted mid-request: left `running`, since that page may have been charged with its answer lost.
  if (error instanceof ScraperAbortError) return { ...checkpoint, stoppedBecause: "interrupted" };
  if (error instanceof ScraperBudgetError) return { ...checkpoint, status: "stopped", stoppedBecause: "maxCredits" };
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
  const code = error instanceof Error ? error.name : "Error";
  const message = error instanceof Error ? error.message : String(error);
  return { ...checkpoint, status: "failed", stoppedBecause: code, error: { code, message }, final: false };
}
