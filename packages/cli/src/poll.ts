import type { Platform } from "@content-scraper/client";
import { ScraperApiError } from "@content-scraper/client";
import { type ConnectionOptions, scraperClient } from "./client.js";
import { readCreators } from "./creators.js";
import { exitCodes } from "./exit-codes.js";
import type { Checkpoint } from "./export/checkpoint.js";
import { isAccountCode } from "./export/creator.js";
import { openJournal } from "./export/journal.js";
import { journalPath } from "./export/local.js";
import { creatorFile, type ExportLine, openCreatorOutput } from "./export/output.js";
import { UsageError } from "./usage-error.js";

export interface PollArguments extends ConnectionOptions {
  platform: Platform;
  out: string;
  creators?: string | undefined;
  /** A fleet export's Redis: its checkpoints are there (with the export's `creators`, which name it). */
  redis?: string | undefined;
  concurrency: number;
  json: boolean;
}

interface PollResult {
  creator: string;
  newPosts: number;
  creditsCharged: number;
  error?: { code: string; status?: number | undefined; message: string } | undefined;
}

/**
 * `content-scraper poll`: page one of every exported creator (new posts appear at its front), appending the posts the
 * file does not hold yet, and what that cost. The creator's checkpoint moves with the file, so an export run later
 * keeps the polled posts.
 */
export async function poll(args: PollArguments): Promise<number> {
  const creators = args.creators ? await readCreators(args.creators) : undefined;
  const only = creators ? new Set(creators) : undefined;
  if (args.redis && !creators) throw new UsageError("--creators is required with --redis: the export's creators file names the fleet export.");
  const store =
    args.redis && creators
      ? await (await import("./fleet/checkpoints.js")).openFleetCheckpoints(args.redis, args.platform, args.out, creators)
      : await openJournal(journalPath(args.out, args.platform));
  const client = scraperClient(args);
  const exported = (await store.all()).filter((checkpoint) => checkpoint.status === "done" && (!only || only.has(checkpoint.creator)));
  const print = (line: string, object: Record<string, unknown>) =>
    args.json ? process.stdout.write(`${JSON.stringify(object)}\n`) : process.stderr.write(`${line}\n`);
  const results: PollResult[] = [];
  let stop: string | undefined;

  const pollOne = async (checkpoint: Checkpoint): Promise<PollResult> => {
    const output = await openCreatorOutput(creatorFile(args.out, args.platform, checkpoint.creator), checkpoint.bytes);
    if (!output) return { creator: checkpoint.creator, newPosts: 0, creditsCharged: 0, error: { code: "OUTPUT_MISSING", message: "the export file is shorter than its checkpoint" } };
    const walk = client.newPosts(args.platform, checkpoint.creator, { seen: output.seen });
    const lines: ExportLine[] = [];
    let error: PollResult["error"];
    try {
      for await (const post of walk) lines.push({ kind: "post", platform: args.platform, creator: checkpoint.creator, post });
    } catch (caught) {
      if (!(caught instanceof ScraperApiError)) throw caught;
      error = { code: caught.code ?? `HTTP_${caught.status}`, status: caught.status, message: caught.message };
    }
    const creditsCharged = walk.state.creditsCharged;
    const bytes = await output.append(lines);
    await output.close();
    await store.save({ ...checkpoint, bytes, posts: checkpoint.posts + lines.length, creditsCharged: checkpoint.creditsCharged + creditsCharged });
    return { creator: checkpoint.creator, newPosts: lines.length, creditsCharged, error };
  };

  let next = 0;
  const worker = async () => {
    while (next < exported.length && stop === undefined) {
      const result = await pollOne(exported[next++] as Checkpoint);
      results.push(result);
      if (isAccountCode(result.error?.code)) stop = result.error?.code;
      const outcome = result.error ? `failed ${result.error.code}` : `${result.newPosts} new posts`;
      print(`${result.creator}: ${outcome}, ${result.creditsCharged} credits`, { event: "creator", ...result });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(args.concurrency, exported.length) }, worker));
  } finally {
    await store.close();
  }
  const total = (field: "newPosts" | "creditsCharged") => results.reduce((sum, result) => sum + result[field], 0);
  const failed = results.filter((result) => result.error).length;
  const summary = { creators: results.length, newPosts: total("newPosts"), creditsCharged: total("creditsCharged"), failed, stoppedBecause: stop ?? "complete" };
  print(`poll ${summary.stoppedBecause}: ${summary.creators} creators, ${summary.newPosts} new posts, ${summary.creditsCharged} credits charged, ${failed} failed`, {
    event: "finish",
    ...summary,
  });
  if (stop) return exitCodes.stopped;
  return failed > 0 ? exitCodes.failed : exitCodes.ok;
}
