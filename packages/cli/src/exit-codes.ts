import { configurationStops } from "./export/creator.js";

/** The exit statuses of `content-scraper`, documented in the README. */
export const exitCodes = {
  /** Every creator's catalog is exported (or the one-off call answered). */
  ok: 0,
  /** The run finished, but some creators failed (see the manifest), or a one-off call was answered with an error. */
  failed: 1,
  /**
   * Bad arguments, environment or output folder (checked before anything is sent), another run holding the folder, a
   * write to the folder that failed (a full disk) or the folder changed while the run went (the run stops at once), or
   * a base address that answers something other than the API (the run stops at its first such answer).
   */
  usage: 2,
  /** Stopped before the end, resumable: no credits left (402), the key refused (401), or `--max-credits` reached. */
  stopped: 3,
  /** A fleet's coordination was lost (Redis restarted empty, or another coordinator took the export): run it again. */
  coordinationLost: 4,
  /** Interrupted (Ctrl-C / SIGINT or SIGTERM), checkpoints written: run the same command again to continue. */
  interrupted: 130,
  /** The reader of the output went away (`| head`): stopped quietly, as SIGPIPE stops a Unix tool (128 + 13). */
  closedOutput: 141,
} as const;

/** The exit status of an export from why it stopped and how its creators ended. */
export function exportExitCode(stoppedBecause: string, failed: number): number {
  if (stoppedBecause === "interrupted") return exitCodes.interrupted;
  if (stoppedBecause === "coordinationLost") return exitCodes.coordinationLost;
  if (configurationStops.includes(stoppedBecause)) return exitCodes.usage;
  if (stoppedBecause !== "complete") return exitCodes.stopped;
  return failed > 0 ? exitCodes.failed : exitCodes.ok;
}
