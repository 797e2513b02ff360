import type { SingleBar } from "cli-progress";
import type { Checkpoint } from "./export/checkpoint.js";
import type { PageReport } from "./export/creator.js";
import type { Manifest } from "./export/manifest.js";
import type { Io } from "./io.js";

/** What an export tells the person (or program) watching it. */
export interface Reporter {
  start(total: number, alreadyDone: number): void;
  /** After every saved checkpoint, with the run's totals. */
  progress(totals: Totals): void;
  /** After every page saved. */
  page(page: PageReport): void;
  creatorEnded(checkpoint: Checkpoint, totals: Totals): void;
  note(message: string): void;
  /** The run's end: its manifest, and where it was written (`undefined`: it could not be, and a note said why). */
  finish(manifest: Manifest, manifestPath: string | undefined): void;
}

/** Running figures of this run, for the display. */
export interface Totals {
  done: number;
  posts: number;
  creditsCharged: number;
  /** The balance the service last reported (`credits_remaining`). */
  balance?: number | undefined;
  /** What `--max-credits` still allows. */
  budgetLeft?: number | undefined;
  /** Time spent waiting on the client's pacing, in ms, and the service's last rate-limit reading. */
  pacingWaitMs: number;
  rateLimit?: { remaining?: number | undefined; limit?: number | undefined } | undefined;
}

export type ReporterKind = "bar" | "lines" | "json";

export async function createReporter(kind: ReporterKind, io: Io): Promise<Reporter> {
  if (kind === "json") return jsonReporter(io);
  // The bar's library loads only for a terminal.
  if (kind === "bar") return barReporter(io, await import("cli-progress"));
  return lineReporter(io);
}

const summary = (checkpoint: Checkpoint) =>
  `${checkpoint.creator}: ${checkpoint.status} (${checkpoint.stoppedBecause ?? "?"}), ${checkpoint.pages} pages, ${checkpoint.posts} posts, ${checkpoint.creditsCharged} credits`;

function finishLine(manifest: Manifest, path: string | undefined): string {
  const { creators } = manifest;
  return (
    `export ${manifest.stoppedBecause}: ${creators.done}/${creators.total} creators done, ${creators.failed} failed, ` +
    `${creators.stopped + creators.pending} to go; ${manifest.pages} pages, ${manifest.posts} posts, ${manifest.creditsCharged} credits charged. ${manifestWhere(path)}`
  );
}

/** Where the manifest is, for a finish line. */
export const manifestWhere = (path: string | undefined) => (path === undefined ? "Manifest not written (see above)." : `Manifest: ${path}`);

/** Plain lines, one per creator finished and a summary: for logs and pipes. */
function lineReporter(io: Io): Reporter {
  const write = (line: string) => io.stderr(`${new Date().toISOString()} ${line}\n`);
  let creators = 0;
  return {
    start: (total, alreadyDone) => {
      creators = total;
      write(`export: ${total} creators, ${alreadyDone} already finished`);
    },
    progress: () => {},
    page: () => {},
    creatorEnded: (checkpoint, totals) => write(`${summary(checkpoint)} [${totals.done}/${creators} finished, ${totals.creditsCharged} credits this run]`),
    note: (message) => write(message),
    finish: (manifest, path) => write(finishLine(manifest, path)),
  };
}

/** One JSON object per line on stdout, each with an `event`: for programs. */
function jsonReporter(io: Io): Reporter {
  const emit = (event: Record<string, unknown>) => io.stdout(`${JSON.stringify(event)}\n`);
  return {
    start: (total, alreadyDone) => emit({ event: "start", creators: total, alreadyDone }),
    progress: () => {},
    page: (page) => emit({ event: "page", ...page }),
    creatorEnded: (checkpoint) => emit({ event: "creator", ...checkpoint }),
    note: (message) => emit({ event: "note", message }),
    finish: (manifest, path) => {
      const { entries: _entries, ...totals } = manifest;
      emit({ event: "finish", manifest: path ?? null, ...totals });
    },
  };
}

/**
 * A progress bar (cli-progress) on a terminal, in three lines that fit 80 columns: creators done of all and the ETA;
 * posts, credits spent and what is left; pacing. Notes print above it.
 */
function barReporter(io: Io, { MultiBar, Presets }: typeof import("cli-progress")): Reporter {
  // The bar draws figures only; every text it shows (notes, creators' lines) is redacted first.
  const stream = process.stderr;
  const bars = new MultiBar({ stream, hideCursor: true, barsize: 24, etaBuffer: 50, fps: 5 }, Presets.shades_classic);
  const log = (line: string) => bars.log(`${io.redactor.text(line)}\n`);
  const lines: SingleBar[] = [];
  const payload = (totals: Totals) => ({
    posts: totals.posts,
    credits: totals.creditsCharged,
    remaining:
      [totals.budgetLeft === undefined ? undefined : `${totals.budgetLeft} budget`, totals.balance === undefined ? undefined : `${totals.balance} balance`]
        .filter(Boolean)
        .join(", ") || "?",
    pacing: `rate limit ${totals.rateLimit?.remaining ?? "?"}/${totals.rateLimit?.limit ?? "?"} left | calls paced ${(totals.pacingWaitMs / 1000).toFixed(1)} s in all`,
  });
  const update = (totals: Totals) => {
    for (const line of lines) line.update(totals.done, payload(totals));
  };
  return {
    start: (total, alreadyDone) => {
      const initial = payload({ done: alreadyDone, posts: 0, creditsCharged: 0, pacingWaitMs: 0 });
      lines.push(bars.create(total, alreadyDone, initial, { format: "{bar} {value}/{total} creators | ETA {eta_formatted}" }));
      lines.push(bars.create(total, alreadyDone, initial, { format: "{posts} posts | {credits} credits spent | {remaining} left" }));
      lines.push(bars.create(total, alreadyDone, initial, { format: "{pacing}" }));
    },
    progress: (totals) => update(totals),
    page: () => {},
    creatorEnded: (checkpoint, totals) => {
      if (checkpoint.status !== "done") log(summary(checkpoint));
      update(totals);
    },
    note: (message) => log(message),
    finish: (manifest, path) => {
      bars.stop();
      io.stderr(`${finishLine(manifest, path)}\n`);
    },
  };
}
