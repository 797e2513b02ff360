import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Checkpoint } from "./checkpoint.js";

/** One creator's line of the manifest: how its export ended, what it fetched and what it cost. */
export interface ManifestEntry {
  creator: string;
  status: Checkpoint["status"] | "pending";
  pages: number;
  posts: number;
  creditsCharged: number;
  stoppedBecause?: string | undefined;
  error?: Checkpoint["error"];
  resumes?: number | undefined;
}

/** The export's account: one entry per creator of the list, and the totals. */
export interface Manifest {
  platform: string;
  /** `complete`, or why the export stopped: `maxCredits`, `INSUFFICIENT_SCRAPER_CREDITS`, `UNAUTHORIZED`, `interrupted`. */
  stoppedBecause: string;
  creators: { total: number; done: number; failed: number; stopped: number; pending: number };
  pages: number;
  posts: number;
  /**
   * What the service charged the export, across all its runs: the `X-Scraper-Credits-Charged` of every answer it
   * received, plus `creditsUnseen`.
   */
  creditsCharged: number;
  /**
   * Credits charged for answers a killed run never received (its requests in flight), found from the balance the
   * service reports: the next run's starting balance is lower than the killed run's by exactly those. Local exports;
   * exact when the export is the key's only user and nobody tops the balance up between a kill and the next run.
   */
  creditsUnseen: number;
  /** Runs whose start could not be reconciled that way (the balance rose in between): `creditsCharged` may then be short. */
  unreconciledRuns: number;
  /**
   * Creators a run found mid-page (the previous run was killed): each may have been charged for one page whose answer
   * never arrived, and that page was fetched again.
   */
  resumedMidPage: number;
  entries: ManifestEntry[];
}

export function buildManifest(
  platform: string,
  creators: string[],
  checkpoints: Checkpoint[],
  stoppedBecause: string,
  unseen: { credits: number; unreconciledRuns: number } = { credits: 0, unreconciledRuns: 0 },
): Manifest {
  const byCreator = new Map(checkpoints.map((checkpoint) => [checkpoint.creator, checkpoint]));
  const entries = creators.map((creator): ManifestEntry => {
    const checkpoint = byCreator.get(creator);
    if (!checkpoint) return { creator, status: "pending", pages: 0, posts: 0, creditsCharged: 0 };
    const { status, pages, posts, creditsCharged, stoppedBecause: reason, error, resumes } = checkpoint;
    return { creator, status, pages, posts, creditsCharged, stoppedBecause: reason, error, resumes };
  });
  const count = (status: ManifestEntry["status"]) => entries.filter((entry) => entry.status === status).length;
  const sum = (field: "pages" | "posts" | "creditsCharged" | "resumes") => entries.reduce((total, entry) => total + (entry[field] ?? 0), 0);
  return {
    platform,
    stoppedBecause,
    creators: { total: entries.length, done: count("done"), failed: count("failed"), stopped: count("stopped"), pending: count("pending") + count("running") },
    pages: sum("pages"),
    posts: sum("posts"),
    creditsCharged: sum("creditsCharged") + unseen.credits,
    creditsUnseen: unseen.credits,
    unreconciledRuns: unseen.unreconciledRuns,
    resumedMidPage: sum("resumes"),
    entries,
  };
}

export function manifestPath(out: string, platform: string): string {
  return join(out, platform, "manifest.json");
}

export async function writeManifest(out: string, manifest: Manifest): Promise<string> {
  const path = manifestPath(out, manifest.platform);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(manifest, null, 2)}\n`);
  return path;
}
