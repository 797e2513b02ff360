import { createHash } from "node:crypto";
import { resolve } from "node:path";

/** The id of a fleet export: the same platform, output folder and creators give the same id, so a rerun resumes it. */
export function exportId(platform: string, out: string, creators: string[]): string {
  return createHash("sha256").update(JSON.stringify([platform, resolve(out), creators])).digest("hex").slice(0, 16);
}

/** Every Redis key of one export, under `content-scraper:export:<id>:`; the BullMQ queue is `content-scraper-export-<id>`. */
export function exportKeys(id: string) {
  const base = `content-scraper:export:${id}`;
  return {
    queue: `content-scraper-export-${id}`,
    config: `${base}:config`,
    checkpoints: `${base}:checkpoints`,
    owners: `${base}:owners`,
    /** Set (with the reason) when the fleet must stop: a 402, a 401, the budget spent, or the coordinator interrupted. */
    stop: `${base}:stop`,
    /** The credit budget's key in the Redis budget store. */
    budget: `export:${id}`,
  };
}

/** What a worker needs to join an export, stored by the coordinator. */
export interface FleetConfig {
  platform: string;
  out: string;
  baseUrl?: string | undefined;
  requestsPerMinute?: number | undefined;
  maxRetries?: number | undefined;
  maxCredits?: number | undefined;
  concurrency: number;
}

/** A creator's BullMQ job id (BullMQ reserves `:` in ids). */
export function jobId(creator: string): string {
  return encodeURIComponent(creator);
}
