/**
 * A creator's progress, saved after every page: enough to resume the walk where it was and to write the manifest.
 * `bytes` is the length of the creator's output file when the checkpoint was taken: on resume the file is cut back
 * to it, so a page written after the last checkpoint (and fetched again) is never in the file twice.
 */
export interface Checkpoint {
  creator: string;
  /** `running`: started, not finished (a run that was killed or stopped leaves it so); `done`: the catalog ended. */
  status: "running" | "done" | "failed" | "stopped";
  /** The profile line is written. */
  profile: boolean;
  /** The walk's resume cursor: the next page not yet fetched (`undefined` with `pages: 0` is page one). */
  cursor: string | undefined;
  pages: number;
  posts: number;
  /** The sum of `X-Scraper-Credits-Charged` of every answer this creator's export received. */
  creditsCharged: number;
  bytes: number;
  /** Why the walk stopped: `end`, `maxCredits`, `interrupted`, or an error code. */
  stoppedBecause?: string | undefined;
  error?: { code: string; status?: number | undefined; requestId?: string | undefined; message: string } | undefined;
  /** A failure that would answer the same again (a creator that does not exist): a rerun skips it. */
  final?: boolean | undefined;
  /** Runs that found this creator `running`: each may have paid for one page whose answer was lost. */
  resumes?: number | undefined;
  /** The run that saved this checkpoint, and that run's account as of it (see `RunAccount`); local exports only. */
  run?: RunAccount | undefined;
}

/**
 * A run's account with the service's balance: the balance before the run's first charge (known from its first
 * success: `credits_remaining` + `credits_charged` + the charges of the answers before it, which a run takes one at a
 * time), and what the run's saved checkpoints were charged since. A killed run's answers in flight were charged too:
 * the next run's `start` is lower than `start − charged` by exactly those credits.
 */
export interface RunAccount {
  id: string;
  start: number | undefined;
  charged: number;
}

/** Where checkpoints live: a journal file next to the output (laptop), or a hash in Redis (fleet). */
export interface CheckpointStore {
  load(creator: string): Promise<Checkpoint | undefined>;
  save(checkpoint: Checkpoint): Promise<void>;
  all(): Promise<Checkpoint[]>;
  close(): Promise<void>;
}

export function freshCheckpoint(creator: string): Checkpoint {
  return { creator, status: "running", profile: false, cursor: undefined, pages: 0, posts: 0, creditsCharged: 0, bytes: 0 };
}

/** A creator a rerun does not touch again: its catalog ended, or it failed in a way that would repeat. */
export function isSettled(checkpoint: Checkpoint | undefined): boolean {
  return checkpoint !== undefined && (checkpoint.status === "done" || (checkpoint.status === "failed" && checkpoint.final === true));
}
