import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import type { Platform } from "@content-scraper/client";
import { createRedisStores } from "@content-scraper/redis-store";
import { type Job, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { type ConnectionOptions, checkPlatform, scraperClient } from "../client.js";
import { creatorOf } from "../creators.js";
import { exitCodes } from "../exit-codes.js";
import { diskCheckpoints } from "../export/checkpoints.js";
import type { Checkpoint } from "../export/checkpoint.js";
import { exportCreator, stopsRun } from "../export/creator.js";
import { OutputFolder, OutputFolderError } from "../export/folder.js";
import { FolderTakenError, fenceOnLock, readLock } from "../export/lock.js";
import type { Io } from "../io.js";
import { UsageError } from "../usage-error.js";
import { CoordinationLostError, creatorClaim } from "./claims.js";
import { budgetKey, type CreatorJob, type ExportKeys, exportKeys, parseConfig, workerIdVariable } from "./keys.js";
import { connectRedis, outageLines, redisUrl } from "./redis.js";

export interface WorkerArguments extends ConnectionOptions {
  /** `--redis URL` (the password from the environment), or `true`: `CONTENT_SCRAPER_REDIS_URL`. */
  redis: string | true;
  export: string;
  /** This machine's path to the export's output folder (the coordinator's, shared). */
  out: string;
  concurrency?: number | undefined;
  /** `--allow-shared-out` (`FolderOptions.shared`). */
  allowSharedOut?: boolean | undefined;
}

/** How often a worker looks at the run's epoch and stop flag, and renews its heartbeat. */
const watchMs = 500;
/** A worker whose heartbeat is this much older is taken for dead: its credit reservations are released. */
const heartbeatMs = 5_000;
/** How long pages in flight may take to finish when a worker is told to stop, before it gives up on them. */
const graceMs = 15_000;

/** A failure worth another attempt (a refunded error the client's own retries did not get past). */
class RetryableCreatorError extends Error {
  override name = "RetryableCreatorError";
}

/** The run a worker joins, read from Redis and checked against the worker's own configuration. */
async function joinExport(redis: Redis, keys: ExportKeys, args: WorkerArguments, io: Io) {
  const [epoch, stored] = await redis.mget(keys.epoch, keys.config);
  const config = parseConfig(stored);
  if (!epoch || !config) throw new UsageError(`--export: no export ${args.export} is running on this Redis (start it with content-scraper export --redis)`);
  // Where the key goes is this process's own configuration, never Redis's: the export's is only checked against it.
  const own = scraperClient(args);
  if (own.baseUrl !== config.baseUrl) {
    throw new UsageError(`this worker's base address (${new URL(own.baseUrl).origin}) is not export ${args.export}'s: give the coordinator's --base-url (or SCRAPER_BASE_URL)`);
  }
  const platform = checkPlatform(own, config.platform);
  const folder = await OutputFolder.open(args.out, platform, io.redactor, { owner: false, shared: args.allowSharedOut });
  if ((await readLock(folder))?.token !== epoch) {
    await folder.close();
    throw new UsageError(`--out: ${folder.path} is not export ${args.export}'s folder (its coordinator's lock is not there): give this machine's path to the coordinator's output folder`);
  }
  // Every write from here on checks that the lock on disk is still this run's: a run that took the folder over (its
  // coordinator dead) fences this worker, whatever Redis still says.
  fenceOnLock(folder, epoch);
  return { epoch, config, platform, folder };
}

/** Connects to the fleet's Redis and joins the run there. */
async function joinRun(url: string, keys: ExportKeys, args: WorkerArguments, io: Io) {
  const redis = await connectRedis(url);
  try {
    return { redis, ...(await joinExport(redis, keys, args, io)) };
  } catch (error) {
    redis.disconnect();
    throw error;
  }
}

/**
 * `content-scraper worker`: takes creators' jobs from the export's BullMQ queue and exports them with the same state
 * machine as a laptop export, into the coordinator's folder (files and checkpoints on disk), until told to stop
 * (SIGTERM, SIGINT, the coordinator's stop flag) or until the run is gone: its epoch changed or vanished (Redis
 * restarted empty, another coordinator), its coordinator dead (the IPC channel of a forked worker closes, or the
 * coordinator's heartbeat lapses). Then it leaves with exit status 4, writing nothing more.
 */
export async function runWorker(args: WorkerArguments, io: Io): Promise<number> {
  const url = redisUrl(args.redis, process.env, io);
  // A coordinator's own worker: the coordinator tells outages and progress; this one stays quiet.
  const forked = process.send !== undefined;
  const say = (line: string) => {
    if (!forked) io.stderr(`${new Date().toISOString()} worker: ${line}\n`);
  };
  // A coordinator killed while its worker loaded closed the IPC channel before this line: no 'disconnect' comes for
  // that, and the worker leaves before it does anything.
  if (forked && !process.connected) return exitCodes.coordinationLost;
  const controller = new AbortController();
  let leaving: "stop" | "lost" | undefined;
  let left = () => {};
  const gone = new Promise<void>((resolve) => {
    left = resolve;
  });
  // Told to stop: the pages in flight finish. Told twice, or the run is lost (nothing could be saved): they are aborted.
  const leave = (how: "stop" | "lost", why?: string) => {
    if (why && leaving !== "lost") say(why);
    if (how === "lost" || leaving !== undefined) controller.abort(new Error(why ?? "stopped twice"));
    leaving = how === "lost" ? "lost" : (leaving ?? "stop");
    left();
  };
  // A forked worker dies with its coordinator, however it goes: from here on, the channel's closing tells it, joined or not.
  if (forked) process.on("disconnect", () => leave("lost"));
  const keys = exportKeys(args.export);
  const joining = joinRun(url, keys, args, io);
  const joined = await Promise.race([joining, gone.then(() => undefined)]);
  if (!joined) {
    // The coordinator went while this worker joined: it takes no job, and what it opened is let go when it has.
    joining.then(({ redis, folder }) => Promise.all([redis.disconnect(), folder.close()])).catch(() => {});
    return exitCodes.coordinationLost;
  }
  const { redis, epoch, config, platform, folder } = joined;
  // Joined: a coordinator gone in the same step (the channel closed) leaves nothing for this worker to do.
  if (leaving !== undefined || (forked && !process.connected)) {
    redis.disconnect();
    await folder.close();
    return exitCodes.coordinationLost;
  }
  const outage = outageLines(url, say);
  // Named by its coordinator when forked (which then releases its credits the moment it exits), else by itself.
  const named = process.env[workerIdVariable];
  const holder = named && /^[\w.-]+$/.test(named) ? named : `${hostname().replace(/[^\w.-]/g, "_")}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const stores = createRedisStores({ redis, prefix: "content-scraper", holder, onUnavailable: (error) => outage.failed(error), onRecovered: () => outage.answered() });
  const client = scraperClient(
    {
      ...args,
      requestsPerMinute: args.requestsPerMinute ?? config.requestsPerMinute,
      maxRetries: args.maxRetries ?? config.maxRetries,
      timeoutMs: args.timeoutMs ?? config.timeoutMs,
      assumeRate: args.assumeRate ?? config.assumeRate,
    },
    config.budget,
    { rateLimit: stores.rateLimit, budget: stores.budget, budgetKey: budgetKey(args.export, epoch) },
  );
  const store = diskCheckpoints(folder);
  const aborted = new Promise<void>((resolve) => controller.signal.addEventListener("abort", () => resolve(), { once: true }));
  const report = (event: Record<string, unknown>) => {
    redis.rpush(keys.events, JSON.stringify(event)).catch(() => {});
  };
  /** Stops the fleet for a write to the folder that failed (a full disk): no job of this worker's is tried again for it. */
  const folderFailed = async (problem: string) => {
    await redis.set(keys.stop, JSON.stringify({ reason: "outputFolder", problem }), "NX");
    leave("stop", `stopped: ${problem}`);
  };

  const processor = async (job: Job<CreatorJob>) => {
    const { handle, epoch: jobEpoch } = job.data ?? {};
    if (typeof handle !== "string" || jobEpoch !== epoch || leaving) return;
    const creator = { ...creatorOf(handle), names: [handle] };
    const claim = creatorClaim(redis, keys, epoch, creator, `${holder}:${randomUUID()}`);
    let checkpoint: Checkpoint;
    try {
      // A creator started in this run by a worker that died: its answers in flight may have been charged, unseen.
      if (await claim.claim()) await redis.set(keys.dirty, "1");
      checkpoint = await exportCreator(
        {
          client,
          platform: platform as Platform,
          folder,
          store: claim.fence(store),
          holding: claim.held,
          signal: controller.signal,
          // A write that failed (a full disk) stops this worker's other creators before their next request.
          stopping: () => leaving !== undefined || folder.failed !== undefined,
          onPage: (page) => report({ type: "page", page }),
        },
        creator,
      );
    } catch (error) {
      if (error instanceof CoordinationLostError) return leave("lost", `export ${args.export}'s run is gone from Redis: leaving`);
      if (error instanceof FolderTakenError) return leave("lost", `${error.message}: another run took it over, so this worker leaves without writing more`);
      if (!(error instanceof OutputFolderError)) throw error;
      return folderFailed(folder.failed?.message ?? error.message);
    }
    report({ type: "creator", checkpoint });
    if (folder.failed) await folderFailed(folder.failed.message);
    else if (stopsRun(checkpoint.stoppedBecause)) {
      await redis.set(keys.stop, JSON.stringify({ reason: checkpoint.stoppedBecause, problem: checkpoint.error?.message }), "NX");
    }
    await claim.release();
    if (checkpoint.status === "failed" && !checkpoint.final) throw new RetryableCreatorError(`${creator.identity}: ${checkpoint.error?.code ?? "failed"}`);
  };

  const worker = new Worker(keys.queue, processor, {
    connection: redis,
    concurrency: args.concurrency ?? config.concurrency,
    lockDuration: config.leaseMs,
    stalledInterval: Math.max(500, Math.floor(config.leaseMs / 3)),
    maxStalledCount: 10,
  });
  worker.on("error", (error) => outage.failed(error));

  // The run's pulse: its epoch, its stop flag, the coordinator's heartbeat; and this worker's own heartbeat.
  let watching = false;
  const watch = setInterval(async () => {
    if (watching) return;
    watching = true;
    try {
      const [current, stop, alive] = await Promise.race([
        redis.mget(keys.epoch, keys.stop, keys.alive),
        sleep(2_000).then(() => {
          throw new Error("no answer within 2 s");
        }),
      ]);
      await redis.multi().sadd(keys.workers, holder).set(keys.worker(holder), "1", "PX", heartbeatMs).exec();
      outage.answered();
      if (current !== epoch) leave("lost", `export ${args.export}'s run is gone from Redis (restarted empty, or replaced by another coordinator): leaving`);
      else if (alive === null) leave("lost", `export ${args.export}'s coordinator is gone: leaving`);
      // Told once is enough: the stop flag stays set, and a second leave would abort the pages in flight.
      else if (stop !== null && leaving === undefined) leave("stop");
    } catch (error) {
      outage.failed(error);
    } finally {
      watching = false;
    }
  }, watchMs);
  const onSignal = () => leave("stop");
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);

  await gone;
  // The pages in flight finish (within the grace), unless they are aborted meanwhile: then a second for the rest.
  let finished = false;
  const closed = worker.close().then(() => {
    finished = true;
  });
  await Promise.race([closed, sleep(graceMs), aborted]);
  if (!finished) {
    controller.abort(new Error("the pages in flight outlasted the worker's grace"));
    await Promise.race([closed, sleep(1_000)]);
  }
  clearInterval(watch);
  await redis.srem(keys.workers, holder).catch(() => {});
  await store.close();
  await stores.close();
  redis.disconnect();
  await folder.close();
  if (process.connected) process.disconnect();
  // Pages given up in flight may have been charged with their answers lost: the exit status tells the coordinator.
  if (leaving === "lost") return exitCodes.coordinationLost;
  return controller.signal.aborted ? exitCodes.interrupted : exitCodes.ok;
}
