import type { WalkResume } from "@content-scraper/client";
import { isCount } from "@content-scraper/runtime";
import type { Creator } from "../creators.js";

/**
 * A creator's progress, saved after every page: enough to resume the walk exactly where it was and to write the
 * manifest. `bytes` is the length of the creator's file when the checkpoint was taken: on resume the file is cut back
 * to it, so a page written after the last checkpoint (and fetched again) is never in the file twice.
 */
export interface Checkpoint {
  /** The creator's identity (`Creator.identity`). */
  creator: string;
  /** The handle sent to the API. */
  handle: string;
  /** The creator's file, in the platform's folder. */
  file: string;
  /** `running`: started, not finished (a run that was killed leaves it so); `done`: the catalog ended. */
  status: "running" | "done" | "failed" | "stopped";
  /** The profile line is written. */
  profile: boolean;
  /** Where the walk of the catalog stands: the client's `walk.state`, passed back as `resume` (`"end"` once it ended). */
  walk: WalkResume;
  pages: number;
  posts: number;
  /** The sum of `X-Scraper-Credits-Charged` of every answer this creator's export (and its polls) received. */
  creditsCharged: number;
  bytes: number;
  /** Why the walk stopped: `end`, `maxCredits`, `interrupted`, `notTheApi`, or an error code. */
  stoppedBecause?: string | undefined;
  error?: { code: string; status?: number | undefined; requestId?: string | undefined; message: string } | undefined;
  /** A failure that would answer the same again (a creator that does not exist, an invalid handle): a rerun skips it. */
  final?: boolean | undefined;
  /** Runs that found this creator `running`: each may have paid for one page whose answer was lost. */
  resumes?: number | undefined;
  /** Times its finished file was found not to match this checkpoint (deleted, cut, grown) and exported again. */
  reexports?: number | undefined;
  /** A poll not finished yet: where its walk stands (it goes on until it reaches a post the file holds). */
  poll?: WalkResume | undefined;
}

/** Where checkpoints live: one file per creator in the output folder (`diskCheckpoints`), whoever writes them. */
export interface CheckpointStore {
  load(creator: Creator): Promise<Checkpoint | undefined>;
  save(checkpoint: Checkpoint): Promise<void>;
  /** Ends this processing's saves of the creator whose file is `file` (of every creator, without one): closes what they hold open. */
  close(file?: string): Promise<void>;
}

export function freshCheckpoint(creator: Creator): Checkpoint {
  return { creator: creator.identity, handle: creator.handle, file: creator.file, status: "running", profile: false, walk: {}, pages: 0, posts: 0, creditsCharged: 0, bytes: 0 };
}

/** A creator a rerun does not touch again: its catalog ended, or it failed in a way that would repeat. */
export function isSettled(checkpoint: Checkpoint | undefined): boolean {
  return checkpoint !== undefined && (checkpoint.status === "done" || (checkpoint.status === "failed" && checkpoint.final === true));
}

const statuses: ReadonlyArray<Checkpoint["status"]> = ["running", "done", "failed", "stopped"];

/** A checkpoint read back from a file, checked: the figures a resume relies on are counts, else `undefined`. */
export function parseCheckpoint(text: string): Checkpoint | undefined {
  let value: Partial<Checkpoint>;
  try {
    value = JSON.parse(text) as Partial<Checkpoint>;
  } catch {
    return undefined;
  }
  const counts = [value.pages, value.posts, value.creditsCharged, value.bytes].every(isCount);
  const named = typeof value.creator === "string" && typeof value.handle === "string" && typeof value.file === "string";
  const walk = typeof value.walk === "object" && value.walk !== null;
  return counts && named && walk && statuses.includes(value.status as Checkpoint["status"]) ? (value as Checkpoint) : undefined;
}
