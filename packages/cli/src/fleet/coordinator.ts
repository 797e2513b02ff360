import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { Queue } from "bullmq";
import { checkPlatform, scraperClient } from "../client.js";
import { readCreators } from "../creators.js";
import { exportExitCode } from "../exit-codes.js";
import { type Checkpoint, isSettled } from "../export/checkpoint.js";
import type { ExportArguments } from "../export/local.js";
import { buildManifest, writeManifest } from "../export/manifest.js";
import { createReporter, type Reporter, type Totals } from "../progress.js";
import { redisCheckpoints } from "./checkpoints.js";
import { exportId, exportKeys, type FleetConfig, jobId } from "./keys.js";
import { connectRedis } from "./redis.js";

export interface FleetArguments extends ExportArguments {
  redis: string;
  workers: number;
}

const bin = fileURLToPath(new URL("../bin.js", import.meta.url));

/**
 * `content-scraper export --redis`: queues one BullMQ job per creator not yet exported, starts `workers` worker
 * processes here (others may join from any machine with `content-scraper worker`), shows the fleet's progress from
 * the checkpoints in Redis, and writes the manifest when the queue is empty or the fleet stops.
 */
export async function exportFleet(args: FleetArguments): Promise<number> {
  const creators = await readCreators(args.creators);
  // The workers build their clients from the same environment: check it here, before anything is queued.
  checkPlatform(scraperClient(args), args.platform);
  const redis = await connectRedis(args.redis);
  const id = exportId(args.platform, args.out, creators);
  const keys = exportKeys(id);
  const reporter = await createReporter(args.reporter);
  const queue = new Queue(keys.queue, { connection: redis });
  const children: ChildProcess[] = [];
  try {
    const config: FleetConfig = {
      platform: args.platform,
      out: args.out,
      baseUrl: args.baseUrl ?? process.env.SCRAPER_BASE_URL,
      requestsPerMinute: args.requestsPerMinute,
      maxRetries: args.maxRetries,
      maxCredits: args.maxCredits,
      concurrency: args.concurrency,
    };
    await redis.set(keys.config, JSON.stringify(config));
    await redis.del(keys.stop);
    const store = redisCheckpoints(redis, id);
    const settledBefore = new Set((await store.all()).filter(isSettled).map((checkpoint) => checkpoint.creator));
    const pending = creators.filter((creator) => !settledBefore.has(creator));
    // A job id per creator: a rerun re-adds only the creators whose jobs are gone, never a second job for one.
    await queue.addBulk(
      pending.map((creator) => ({
        name: "creator",
        data: { creator },
        opts: { jobId: jobId(creator), attempts: 3, backoff: { type: "exponential", delay: 2_000 }, removeOnComplete: true, removeOnFail: true },
      })),
    );
    await queue.resume();
    reporter.note(`fleet export ${id}: ${pending.length} of ${creators.length} creators queued; join from another machine with: content-scraper worker --redis <url> --export ${id}`);
    reporter.start(creators.length, settledBefore.size);

    for (let index = 0; index < args.workers; index++) {
      children.push(fork(bin, ["worker", "--redis", args.redis, "--export", id], { stdio: ["ignore", "ignore", "inherit", "ipc"] }));
    }

    let interrupts = 0;
    const onSignal = () => {
      interrupts += 1;
      if (interrupts === 1) reporter.note("interrupted: the workers finish their pages in flight, then stop (again to kill them)");
      else for (const child of children) child.kill("SIGKILL");
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);

    const seen = new Map((await store.all()).map((checkpoint) => [checkpoint.creator, `${checkpoint.status}:${checkpoint.pages}`]));
    let stoppedBecause = "complete";
    try {
      for (;;) {
        await sleep(400);
        const checkpoints = await store.all();
        report(checkpoints, seen, reporter, settledBefore.size);
        const counts = await queue.getJobCounts("active", "waiting", "delayed", "prioritized");
        const queued = (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0);
        const active = counts.active ?? 0;
        const stop = interrupts > 0 ? "interrupted" : await redis.get(keys.stop);
        if (stop !== null) {
          stoppedBecause = stop;
          await redis.set(keys.stop, stop, "NX");
          await queue.pause();
          if (active === 0 || interrupts > 1) break;
          continue;
        }
        if (queued + active === 0) break;
        const alive = children.filter((child) => child.exitCode === null && child.signalCode === null);
        if (args.workers > 0 && alive.length === 0) {
          reporter.note("every local worker has exited; run the same command again to resume");
          stoppedBecause = "interrupted";
          break;
        }
      }
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
    const manifest = buildManifest(args.platform, creators, await store.all(), stoppedBecause);
    reporter.finish(manifest, await writeManifest(args.out, manifest));
    return exportExitCode(stoppedBecause, manifest.creators.failed);
  } finally {
    await Promise.all(children.map(stopChild));
    await queue.close();
    await redis.quit();
  }
}

/** Tells a worker to finish and waits for it to go. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** Feeds the reporter from the fleet's checkpoints: each creator once when it ends, and the running totals. */
function report(checkpoints: Checkpoint[], seen: Map<string, string>, reporter: Reporter, settledBefore: number): void {
  const totals: Totals = {
    done: checkpoints.filter(isSettled).length,
    posts: checkpoints.reduce((sum, checkpoint) => sum + checkpoint.posts, 0),
    creditsCharged: checkpoints.reduce((sum, checkpoint) => sum + checkpoint.creditsCharged, 0),
    pacingWaitMs: 0,
  };
  totals.done = Math.max(totals.done, settledBefore);
  for (const checkpoint of checkpoints) {
    const state = `${checkpoint.status}:${checkpoint.pages}`;
    if (seen.get(checkpoint.creator) === state) continue;
    seen.set(checkpoint.creator, state);
    if (checkpoint.status === "running") reporter.progress(checkpoint, undefined, totals);
    else reporter.creatorEnded(checkpoint, totals);
  }
}
