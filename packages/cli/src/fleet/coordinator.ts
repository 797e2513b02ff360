import { type ChildProcess, fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import type { ScraperClient } from "@content-scraper/client";
import { createRedisStores, type RedisStores } from "@content-scraper/redis-store";
import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { checkPlatform, scraperClient } from "../client.js";
import { type Creator, readCreators } from "../creators.js";
import { checkBalance } from "../export/balance-check.js";
import { type Checkpoint, isSettled } from "../export/checkpoint.js";
import type { PageReport } from "../export/creator.js";
import { stopsRun } from "../export/creator.js";
import { type ExportArguments, finishExport, pendingCreators, runBudget } from "../export/local.js";
import { type Interruption, onInterrupt, runExport } from "../export/run.js";
import { checkpointCredits, type ExportState, openExportState } from "../export/state.js";
import type { Io } from "../io.js";
import { createReporter, type Reporter, type Totals } from "../progress.js";
import { budgetKey, type CreatorJob, type ExportKeys, exportId, exportKeys, type FleetConfig, jobId, workerIdVariable } from "./keys.js";
import { connectRedis, outageLines, redisUrl } from "./redis.js";

export interface FleetArguments extends ExportArguments {
  redis: string | true;
  workers: number;
  /** How long a worker that stops answering keeps its creators before another takes them over. */
  leaseSeconds: number;
}

const bin = fileURLToPath(new URL("../bin.js", import.meta.url));
/** How long the coordinator's heartbeat lives: workers on other machines leave once it lapses. */
const aliveMs = 30_000;
/** How many times one run hands a creator out again after a worker left it unfinished (told to stop, Redis away). */
const maxHandOuts = 5;

/** A JSON value written to Redis by the fleet, or `undefined` if it is not JSON. */
function parsed<T>(text: string | null | undefined): T | undefined {
  try {
    return text == null ? undefined : (JSON.parse(text) as T);
  } catch {
    return undefined;
  }
}

/** What one look at Redis finds. */
interface Reading {
  events: string[];
  queued: number;
  active: number;
  epoch: string | null | undefined;
  stop: { reason: string; problem?: string } | undefined;
  dirty: boolean;
  /** Workers whose heartbeat lapsed. */
  dead: string[];
  /** Workers alive (their heartbeat renewed). */
  workers: number;
}

async function read(redis: Redis, queue: Queue, keys: ExportKeys): Promise<Reading> {
  await redis.set(keys.alive, "1", "PX", aliveMs);
  const events = (await redis.lpop(keys.events, 1_000)) ?? [];
  const counts = await queue.getJobCounts("active", "waiting", "delayed", "prioritized");
  // After the counts: a Redis that restarted empty between the two shows no epoch, never an empty queue taken for done.
  const [epoch, stop, dirty] = await redis.mget(keys.epoch, keys.stop, keys.dirty);
  const holders = await redis.smembers(keys.workers);
  const beats = holders.length > 0 ? await redis.mget(...holders.map(keys.worker)) : [];
  return {
    events,
    queued: (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0),
    active: counts.active ?? 0,
    epoch,
    stop: stop == null ? undefined : (parsed<Reading["stop"]>(stop) ?? { reason: "stopped" }),
    dirty: dirty != null,
    dead: holders.filter((_, index) => beats[index] === null),
    workers: beats.filter((beat) => beat !== null).length,
  };
}

/** Feeds the reporter from the workers' events: pages as they come, each creator's end, the running totals. */
function feed(events: string[], reporter: Reporter, totals: Totals, settled: Set<string>): void {
  for (const text of events) {
    const event = parsed<{ type: "page"; page: PageReport } | { type: "creator"; checkpoint: Checkpoint }>(text);
    if (event?.type === "page") {
      totals.posts += event.page.posts;
      totals.creditsCharged += event.page.creditsCharged;
      reporter.page(event.page);
      reporter.progress(totals);
    } else if (event?.type === "creator") {
      if (isSettled(event.checkpoint) && !settled.has(event.checkpoint.creator)) {
        settled.add(event.checkpoint.creator);
        totals.done += 1;
      }
      reporter.creatorEnded(event.checkpoint, totals);
    }
  }
}

/**
 * `content-scraper export --redis`: the same export as on a laptop, its creators handed out by a BullMQ queue to
 * `workers` processes here and any that join from elsewhere. The files and checkpoints on disk are the truth; Redis
 * holds the queue, the claims and the run's epoch (this run's lock token). The coordinator learns the balance with the
 * run's first answer (alone, here), hands the rest out, shows the workers' progress, hands out again whatever a worker
 * left unfinished, and ends when every creator is settled on disk or the fleet must stop. It writes "complete" only
 * then: a Redis that lost the run (restarted empty) stops it with exit status 4, and the next run trusts the disk.
 */
export async function exportFleet(args: FleetArguments, io: Io): Promise<number> {
  const creators = await readCreators(args.creators);
  const url = redisUrl(args.redis, process.env, io);
  const own = scraperClient(args);
  checkPlatform(own, args.platform);
  const state = await openExportState(args.out, args.platform, creators, io, { shared: args.allowSharedOut });
  let redis: Redis | undefined;
  let queue: Queue | undefined;
  let stores: RedisStores | undefined;
  try {
    redis = await connectRedis(url);
    const id = exportId(args.platform, args.out, creators);
    const keys = exportKeys(id);
    const epoch = state.lock.holder.token;
    const budget = runBudget(args.maxCredits, state);
    const reporter = await createReporter(args.reporter, io);
    const outage = outageLines(url, (line) => reporter.note(line));
    queue = new Queue(keys.queue, { connection: redis });
    queue.on("error", (error) => outage.failed(error));
    // A new run: the earlier runs' jobs, claims and flags go, and the epoch says which run is current.
    await queue.obliterate({ force: true });
    await queue.resume();
    const config: FleetConfig = {
      platform: args.platform,
      baseUrl: own.baseUrl,
      requestsPerMinute: args.requestsPerMinute,
      maxRetries: args.maxRetries,
      timeoutMs: args.timeoutMs,
      assumeRate: args.assumeRate,
      budget,
      concurrency: args.concurrency,
      leaseMs: args.leaseSeconds * 1000,
    };
    await redis
      .multi()
      .del(keys.stop, keys.owners, keys.dirty, keys.events, keys.workers)
      .set(keys.config, JSON.stringify(config))
      .set(keys.epoch, epoch)
      .set(keys.alive, "1", "PX", aliveMs)
      .exec();
    stores = createRedisStores({ redis, prefix: "content-scraper" });
    const client = scraperClient(args, budget, { rateLimit: stores.rateLimit, budget: stores.budget, budgetKey: budgetKey(id, epoch) });
    const pending = pendingCreators(creators, state);
    reporter.note(`fleet export ${id}: ${pending.length} of ${creators.length} creators to export; join from another machine with: content-scraper worker --export ${id} --out <this folder there>`);
    reporter.start(creators.length, creators.length - pending.length);
    const interruption = onInterrupt(reporter);
    const run = randomUUID();
    await state.runs.begin(run);
    try {
      // The run's first answer, alone and here: the balance the run starts from.
      const account = { runs: state.runs, run, totalBefore: state.runs.total(checkpointCredits(state.checkpoints.values())) };
      const settledBefore = creators.length - pending.length;
      // A creator this phase only started goes on in the fleet: it is told about when it ends there.
      const soloReporter: Reporter = { ...reporter, creatorEnded: (checkpoint, totals) => checkpoint.stoppedBecause !== "interrupted" && reporter.creatorEnded(checkpoint, totals) };
      const solo = await runExport({ ...args, client, folder: state.folder, store: state.store, creators: pending, settledBefore, reporter: soloReporter, interruption, budget, account, concurrency: 1, untilBalance: true });
      if (interruption.stopping() || stopsRun(solo.stoppedBecause)) {
        if (!interruption.signal.aborted && !state.folder.failed) await state.runs.end(run);
        return await finishExport(state, args.platform, creators, { ...solo, stoppedBecause: stopsRun(solo.stoppedBecause) ? solo.stoppedBecause : "interrupted" }, reporter);
      }
      const fleet = await runFleet({ args, id, keys, epoch, url, redis, queue, stores, client, state, creators, reporter, interruption, outage, run });
      return await finishExport(state, args.platform, creators, fleet, reporter);
    } finally {
      interruption.dispose();
    }
  } finally {
    await queue?.close().catch(() => {});
    await stores?.close();
    redis?.disconnect();
    await state.close();
  }
}

interface FleetRun {
  args: FleetArguments;
  id: string;
  keys: ExportKeys;
  epoch: string;
  url: string;
  redis: Redis;
  queue: Queue;
  stores: RedisStores;
  client: ScraperClient;
  state: ExportState;
  creators: Creator[];
  reporter: Reporter;
  interruption: Interruption;
  outage: ReturnType<typeof outageLines>;
  run: string;
}

/**
 * The creators not settled on disk, as jobs; answers how many. The first hand-out includes those that failed in a way
 * worth retrying (before this run, or in its first answers here); later ones leave them failed (their jobs' attempts
 * are spent).
 */
async function handOut(fleet: FleetRun, handOuts: Map<string, number>, first: boolean): Promise<number> {
  const checkpoints = await fleet.state.store.all(fleet.creators);
  const left = fleet.creators.filter((creator) => {
    const checkpoint = checkpoints.get(creator.identity);
    return !isSettled(checkpoint) && (first || checkpoint?.status !== "failed") && (handOuts.get(creator.identity) ?? 0) < maxHandOuts;
  });
  for (const creator of left) handOuts.set(creator.identity, (handOuts.get(creator.identity) ?? 0) + 1);
  await fleet.queue.addBulk(
    left.map((creator) => ({
      name: "creator",
      data: { handle: creator.handle, epoch: fleet.epoch } satisfies CreatorJob,
      opts: { jobId: jobId(creator), attempts: 3, backoff: { type: "exponential", delay: 2_000 }, removeOnComplete: true, removeOnFail: true },
    })),
  );
  return left.length;
}

/** Hands the creators out, watches the fleet until the queue is done or it must stop, and ends the run. */
async function runFleet(fleet: FleetRun): Promise<{ stoppedBecause: string; problem?: string | undefined }> {
  const { args, keys, redis, queue, reporter, interruption, outage, state } = fleet;
  const handOuts = new Map<string, number>();
  const queued = await handOut(fleet, handOuts, true);
  // Workers side by side before any balance is known (every answer of the first phase failed): what a kill would lose
  // now has no bound a later balance could give, and the journal says so.
  if (queued > 0 && !state.runs.known) await state.runs.wide(fleet.run);
  const children: ChildProcess[] = [];
  const env = { ...process.env, CONTENT_SCRAPER_REDIS_URL: fleet.url, SCRAPER_BASE_URL: fleet.client.baseUrl };
  const workerArgs = [
    "worker",
    "--export",
    fleet.id,
    "--out",
    args.out,
    ...(args.allowInsecureHttp ? ["--allow-insecure-http"] : []),
    ...(args.allowSharedOut ? ["--allow-shared-out"] : []),
  ];
  let dirty = false;
  let stopping = false;
  // The Redis URL (and its password) reaches the workers through their environment, never their argv.
  for (let index = 0; index < (queued > 0 ? args.workers : 0); index++) {
    const holder = `${fleet.id}-${index}-${randomUUID().slice(0, 8)}`;
    const child = fork(bin, workerArgs, { env: { ...env, [workerIdVariable]: holder }, stdio: ["ignore", "ignore", "inherit", "ipc"] });
    child.once("exit", (code) => {
      // A worker gone before it was told to go, or that gave up pages in flight (a status other than 0), may have
      // lost answers that were charged; whatever credits it still held are released at once.
      dirty ||= !stopping || code !== 0;
      fleet.stores.budget.release(budgetKey(fleet.id, fleet.epoch), holder).catch(() => {});
    });
    children.push(child);
  }

  const totals: Totals = { done: 0, posts: 0, creditsCharged: 0, pacingWaitMs: 0 };
  const settled = new Set<string>();
  let stoppedBecause: string | undefined;
  let problem: string | undefined;
  let pendingRead: Promise<Reading> | undefined;
  for (;;) {
    await sleep(400);
    if (interruption.signal.aborted) for (const child of children) child.kill("SIGKILL");
    pendingRead ??= read(redis, queue, keys).finally(() => {
      pendingRead = undefined;
    });
    const reading = await Promise.race([pendingRead, sleep(2_000).then(() => undefined)]).catch((error: unknown) => {
      outage.failed(error);
      return undefined;
    });
    if (!reading) {
      if (!outage.down) outage.failed(new Error("no answer within 2 s"));
      continue;
    }
    outage.answered();
    if (reading.epoch !== fleet.epoch) {
      reporter.note(`Redis lost export ${fleet.id}'s run (it restarted empty, or another coordinator replaced it): stopping; the files and checkpoints on disk are intact, run the same command again`);
      stoppedBecause = "coordinationLost";
      break;
    }
    feed(reading.events, reporter, totals, settled);
    dirty ||= reading.dirty;
    for (const holder of reading.dead) {
      // A worker whose heartbeat lapsed (here or elsewhere) may have died with answers in flight.
      dirty = true;
      await fleet.stores.budget.release(budgetKey(fleet.id, fleet.epoch), holder);
      await redis.srem(keys.workers, holder);
    }
    const stop = reading.stop?.reason ?? (interruption.stopping() ? "interrupted" : undefined);
    if (stop !== undefined) {
      // The workers leave on their own from here.
      stopping = true;
      stoppedBecause ??= stop;
      problem ??= reading.stop?.problem;
      await redis.set(keys.stop, JSON.stringify({ reason: stop }), "NX");
      await queue.pause();
      // The jobs in flight are done, or nobody is left to finish them (their workers exited or died).
      if (reading.active === 0 || reading.workers === 0 || interruption.signal.aborted) break;
      continue;
    }
    if (reading.queued + reading.active === 0 && (await handOut(fleet, handOuts, false)) === 0) {
      stoppedBecause = "complete";
      break;
    }
    if (args.workers > 0 && children.every((child) => child.exitCode !== null || child.signalCode !== null)) {
      reporter.note("every local worker has exited; run the same command again to resume");
      stoppedBecause = "interrupted";
      break;
    }
  }
  const lost = stoppedBecause === "coordinationLost";
  stopping = true;
  if (!lost) await redis.set(keys.stop, JSON.stringify({ reason: stoppedBecause }), "NX").catch(() => {});
  await Promise.all(children.map((child) => stopChild(child, lost)));
  feed((await redis.lpop(keys.events, 100_000).catch(() => null)) ?? [], reporter, totals, settled);
  dirty ||= (await redis.get(keys.dirty).catch(() => null)) !== null;
  // A write that failed (a full disk) took the charge of the answer it held with it: the next run's balance finds it.
  dirty ||= stoppedBecause === "outputFolder";
  // Nothing was in flight at the end unless the run was lost or its workers killed: a run that lost nothing ends clean.
  const quiet = !lost && !interruption.signal.aborted;
  if (quiet && !dirty) await state.runs.end(fleet.run);
  // Answers lost in flight and not found yet (a worker died here, or an earlier run was killed): an export that is
  // complete learns the balance now, with every worker idle, so that its manifest is exact.
  if (quiet && stoppedBecause === "complete" && state.runs.awaitingBalance > 0) {
    const checked = await checkBalance({ client: fleet.client, platform: args.platform, state, creators: fleet.creators, reporter, run: fleet.run, dirty });
    if (checked && dirty) await state.runs.end(fleet.run);
  }
  await redis.multi().del(keys.alive).expire(keys.config, 3600).expire(keys.epoch, 3600).expire(keys.stop, 3600).exec().catch(() => {});
  return { stoppedBecause: stoppedBecause as string, problem };
}

/**
 * Tells a worker to finish its pages in flight (or, `abort`, to give them up: the run is lost, nothing could be saved)
 * and waits for it to go, killing it if it outstays the worker's grace.
 */
async function stopChild(child: ChildProcess, abort: boolean): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  // A second signal (another one: two of a kind may arrive as one): the worker aborts what is in flight.
  if (abort) child.kill("SIGINT");
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  await exited;
  clearTimeout(timer);
}
