import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { isCount } from "@content-scraper/runtime";
import type { Creator } from "../creators.js";

/** The id of a fleet export: the same platform, output folder and creators give the same id, so a rerun resumes it. */
export function exportId(platform: string, out: string, creators: Creator[]): string {
  const identities = creators.map((creator) => creator.identity);
  return createHash("sha256").update(JSON.stringify([platform, resolve(out), identities])).digest("hex").slice(0, 16);
}

/**
 * Every Redis key of one export, under `content-scraper:export:<id>:`; the BullMQ queue is `content-scraper-export-<id>`.
 * Redis holds only coordination: the queue, who works on which creator, the epoch, progress events for the display.
 */
export function exportKeys(id: string) {
  const base = `content-scraper:export:${id}`;
  return {
    queue: `content-scraper-export-${id}`,
    /** The settings every worker shares (`FleetConfig`). */
    config: `${base}:config`,
    /** The run's epoch: a coordinator sets a new one each run; a process that finds it gone or changed stops. */
    epoch: `${base}:epoch`,
    /** Present while the coordinator lives (it renews it): workers elsewhere leave when it lapses. */
    alive: `${base}:alive`,
    /** Who works on each creator (a processing's token): a worker whose creator was handed on can no longer save it. */
    owners: `${base}:owners`,
    /** Set (with the reason) when the fleet must stop: a 402, a 401, the budget spent, the coordinator's end. */
    stop: `${base}:stop`,
    /** Set when a creator was found started by a worker of this run that died: answers may have been lost. */
    dirty: `${base}:dirty`,
    /** Progress events (pages, creators ended) for the coordinator's display. */
    events: `${base}:events`,
    /** The workers of the run, and each one's heartbeat key (`worker(holder)`). */
    workers: `${base}:workers`,
    worker: (holder: string) => `${base}:worker:${holder}`,
  };
}

export type ExportKeys = ReturnType<typeof exportKeys>;

/** The environment variable that names a forked worker (its heartbeat and its credit reservations), for its coordinator. */
export const workerIdVariable = "CONTENT_SCRAPER_WORKER_ID";

/** The credit budget's key in the Redis budget store: one per run, sized by what the run may spend. */
export const budgetKey = (id: string, epoch: string) => `export:${id}:${epoch}`;

/** The settings every worker of an export shares, stored by the coordinator and checked by each worker. */
export interface FleetConfig {
  platform: string;
  /** The base address the coordinator uses: a worker refuses to work unless its own is the same. */
  baseUrl: string;
  requestsPerMinute?: number | undefined;
  maxRetries?: number | undefined;
  timeoutMs?: number | undefined;
  assumeRate?: number | undefined;
  /** What this run may spend (`--max-credits` less what earlier runs were charged). */
  budget?: number | undefined;
  concurrency: number;
  /** How long a worker that stops answering keeps its creators. */
  leaseMs: number;
}

/** A stored config, checked (its figures are counts); `undefined` if it is not one. */
export function parseConfig(text: string | null | undefined): FleetConfig | undefined {
  try {
    const config = JSON.parse(text ?? "") as FleetConfig;
    const optional = [config.requestsPerMinute, config.maxRetries, config.timeoutMs, config.assumeRate, config.budget].every((value) => value === undefined || isCount(value));
    const named = typeof config.platform === "string" && typeof config.baseUrl === "string";
    return named && optional && isCount(config.concurrency) && config.concurrency > 0 && isCount(config.leaseMs) && config.leaseMs > 0 ? config : undefined;
  } catch {
    return undefined;
  }
}

/** A creator's BullMQ job id: a digest, never a number (BullMQ refuses integer ids) nor a `:`. */
export function jobId(creator: Creator): string {
  return `creator-${createHash("sha256").update(creator.identity).digest("hex").slice(0, 24)}`;
}

/** What a job carries: the creator's handle (its identity and file follow from it, in the worker), and its run. */
export interface CreatorJob {
  handle: string;
  epoch: string;
}
