import { randomUUID } from "node:crypto";
import type { Platform } from "@content-scraper/client";
import { createRedisStores } from "@content-scraper/redis-store";
import { type Job, Worker } from "bullmq";
import { type ConnectionOptions, scraperClient } from "../client.js";
import { exitCodes } from "../exit-codes.js";
import { exportCreator, stopsExport } from "../export/creator.js";
import { UsageError } from "../usage-error.js";
import { redisCheckpoints } from "./checkpoints.js";
import { exportKeys, type FleetConfig } from "./keys.js";
import { connectRedis } from "./redis.js";

export interface WorkerArguments extends ConnectionOptions {
  redis: string;
  export: string;
  out?: string | undefined;
  concurrency?: number | undefined;
}

/** Timing of BullMQ's stalled-job recovery: a dead worker's creators go back to the queue within about 20 s. */
export const lockDurationMs = 15_000;
const stalledIntervalMs = 5_000;

/** A failure worth another attempt (a refunded error the client's own retries did not get past). */
class RetryableCreatorError extends Error {
  override name = "RetryableCreatorError";
}

/**
 * `content-scraper worker`: takes creators' jobs from the export's BullMQ queue until told to stop (SIGTERM, SIGINT,
 * or its parent coordinator going away). Pacing and budget go through the Redis stores, checkpoints into Redis.
 */
export async function runWorker(args: WorkerArguments): Promise<number> {
  const redis = await connectRedis(args.redis);
  const keys = exportKeys(args.export);
  const stored = await redis.get(keys.config);
  if (stored === null) {
    await redis.quit();
    throw new UsageError(`--export: no export ${args.export} on this Redis (start it with content-scraper export --redis)`);
  }
  const config = JSON.parse(stored) as FleetConfig;
  const stores = createRedisStores({ redis, prefix: "content-scraper" });
  const client = scraperClient(
    {
      baseUrl: args.baseUrl ?? config.baseUrl,
      requestsPerMinute: args.requestsPerMinute ?? config.requestsPerMinute,
      maxRetries: args.maxRetries ?? config.maxRetries,
    },
    config.maxCredits,
    { rateLimit: stores.rateLimit, budget: stores.budget, budgetKey: keys.budget },
  );
  const controller = new AbortController();
  let leaving = false;
  let stopFlag: string | null = null;
  const watch = setInterval(async () => {
    stopFlag = await redis.get(keys.stop).catch(() => stopFlag);
  }, 500);

  const processor = async (job: Job<{ creator: string }>) => {
    const { creator } = job.data;
    if (leaving || stopFlag) return { creator, skipped: true };
    const store = redisCheckpoints(redis, args.export, { creator, token: `${job.id}:${randomUUID()}` });
    await store.claim();
    const checkpoint = await exportCreator(
      {
        client,
        platform: config.platform as Platform,
        out: args.out ?? config.out,
        store,
        signal: controller.signal,
        stopping: () => leaving || stopFlag !== null,
      },
      creator,
    );
    if (stopsExport(checkpoint)) await redis.set(keys.stop, checkpoint.stoppedBecause ?? "stopped", "NX");
    if (checkpoint.status === "failed" && !checkpoint.final) throw new RetryableCreatorError(`${creator}: ${checkpoint.error?.code ?? "failed"}`);
    return { creator, status: checkpoint.status, stoppedBecause: checkpoint.stoppedBecause };
  };

  const worker = new Worker(keys.queue, processor, {
    connection: redis,
    concurrency: args.concurrency ?? config.concurrency,
    lockDuration: lockDurationMs,
    stalledInterval: stalledIntervalMs,
    maxStalledCount: 10,
  });
  worker.on("error", () => {});

  await new Promise<void>((resolve) => {
    const leave = () => {
      if (leaving) controller.abort(new Error("stopped twice"));
      leaving = true;
      resolve();
    };
    process.on("SIGTERM", leave);
    process.on("SIGINT", leave);
    process.on("disconnect", leave);
  });
  // Finishes the pages in flight (each creator checkpoints and returns), then lets go of the queue.
  await worker.close();
  clearInterval(watch);
  await stores.close();
  await redis.quit();
  // A worker forked by a coordinator holds an IPC channel, which would keep it alive.
  if (process.connected) process.disconnect();
  return exitCodes.ok;
}
