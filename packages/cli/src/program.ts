import { readFileSync } from "node:fs";
import { type Platform, ScraperApiError, ScraperInputError } from "@content-scraper/client";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { exitCodes } from "./exit-codes.js";
import { type Io, processIo } from "./io.js";
import type { ReporterKind } from "./progress.js";
import { UsageError } from "./usage-error.js";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

const integer = (name: string, min: number) => (value: string) => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min) throw new InvalidArgumentError(`${name} must be an integer of at least ${min}.`);
  return parsed;
};

const environment = `
Environment:
  SCRAPER_API_KEY                 your scraper key (scrape_live_…); never passed as an argument
  SCRAPER_BASE_URL                the base address, ending in /api/v1, when --base-url is not given
  CONTENT_SCRAPER_REDIS_URL       a fleet's Redis URL (with its password), for --redis without a URL
  CONTENT_SCRAPER_REDIS_PASSWORD  the password of the Redis that --redis <url> names (never in the URL on the command line)`;

const exitStatuses = `
Exit status:
  0    every creator exported
  1    finished, some creators failed (see the manifest); a rerun retries those that may succeed
  2    bad arguments, environment or output folder (nothing sent), the folder in use by another run,
       a write to the folder that failed or a folder changed while the run went (a full disk: the run stops at once),
       or a base address that does not answer as the API does (the run stops at its first such answer)
  3    stopped, resumable: no credits left (402), key refused (401) or --max-credits reached
  4    a fleet's run was lost from Redis (restarted empty, or another coordinator): run the same command again
  130  interrupted (Ctrl-C, SIGTERM) after checkpointing: run the same command again to continue
  141  the reader of the output went away (| head): stopped quietly, resumable as after an interruption`;

interface CommonOptions {
  baseUrl?: string;
  allowInsecureHttp?: boolean;
  requestsPerMinute?: number;
  maxRetries?: number;
  timeoutMs?: number;
  assumeRate?: number;
}

const withConnection = (command: Command) =>
  command
    .option("--base-url <url>", "the scraper base address, ending in /api/v1 (default: $SCRAPER_BASE_URL)")
    .option("--allow-insecure-http", "allow a plain http:// base address to another machine (the key travels in cleartext)")
    .option("--requests-per-minute <n>", "client-side pacing (default: the API's documented limit)", integer("--requests-per-minute", 1))
    .option("--max-retries <n>", "retries of a refunded or rate-limited answer, with the API's backoff (default: 4)", integer("--max-retries", 0))
    .option("--timeout-ms <n>", "each request's time, from sending to the last byte (default: the API's timeout for the platform)", integer("--timeout-ms", 1))
    .option("--assume-rate <n>", "the credits one call costs your account, if you know it: budgets count every call at least this much from the first", integer("--assume-rate", 1));

/** The commands that write an output folder accept one another user owns or can write only when told so by name. */
const sharedOutOption = () =>
  new Option(
    "--allow-shared-out",
    "accept an --out (or <out>/<platform>) that another user owns or that its group or others can write, and create its files 0660 and folders 0770 (default: refused; files 0600, folders 0700)",
  );

const redisOption = (description: string) =>
  new Option("--redis [url]", `${description}; without a URL, $CONTENT_SCRAPER_REDIS_URL (a password only from the environment: $CONTENT_SCRAPER_REDIS_PASSWORD)`);

/** A one-off call, its module loaded when used (each command loads only what it runs: the CLI starts fast). */
async function oneOff(...args: Parameters<typeof import("./one-off.js").oneOff>): Promise<number> {
  return (await import("./one-off.js")).oneOff(...args);
}

/** The `content-scraper` program: argument parsing only; every rule lives in the client and the export's modules. */
export function buildProgram(io: Io, setExitCode: (code: number) => void): Command {
  const program = new Command("content-scraper")
    .description("Export creators' catalogs from the Content Scraper API to JSONL (resumable, on one machine or a Redis fleet), and make one-off calls.")
    .version(version)
    .showHelpAfterError("(content-scraper <command> --help shows the options)")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .addHelpText("after", environment);

  withConnection(
    program
      .command("export")
      .summary("export every creator's profile and posts to JSONL, resumably")
      .description(
        "Exports each creator's profile and every post of its catalog to a file of its own under <out>/<platform>/, checkpointing after every page, " +
          "and writes <out>/<platform>/manifest.json. Run the same command again after a stop, a kill or a top-up: it continues where it was.",
      )
      .requiredOption("--platform <platform>", "the platform, e.g. shortvideo")
      .requiredOption("--creators <file>", "a file with one creator handle per line (# comments allowed)")
      .requiredOption("--out <dir>", "the output folder")
      .option("--max-credits <n>", "stop before the export's charges pass this many credits (over all its runs)", integer("--max-credits", 0))
      .option("--concurrency <n>", "creators exported at once (per worker with --redis)", integer("--concurrency", 1), 4)
      .option("--json", "one JSON event per line on stdout instead of a progress display")
      .addOption(sharedOutOption())
      .addOption(redisOption("run as a fleet on this Redis (redis://host:6379): one BullMQ job per creator"))
      .addOption(new Option("--workers <n>", "worker processes to start on this machine with --redis (default: 2)").argParser(integer("--workers", 0)))
      .addOption(
        new Option("--lease-seconds <n>", "with --redis: how long a worker that stops answering keeps its creators before another takes them (default: 15)").argParser(
          integer("--lease-seconds", 1),
        ),
      ),
  )
    .addHelpText(
      "after",
      `\nExamples:\n  SCRAPER_API_KEY=scrape_live_… content-scraper export --platform shortvideo --creators creators.txt --out ./export --max-credits 500\n  content-scraper export --platform shortvideo --creators creators.txt --out ./export --redis redis://127.0.0.1:6379 --workers 4\n${exitStatuses}`,
    )
    .action(
      async (
        options: CommonOptions & {
          platform: string;
          creators: string;
          out: string;
          maxCredits?: number;
          concurrency: number;
          json?: boolean;
          allowSharedOut?: boolean;
          redis?: string | true;
          workers?: number;
          leaseSeconds?: number;
        },
      ) => {
        const reporter: ReporterKind = options.json ? "json" : process.stderr.isTTY ? "bar" : "lines";
        const args = { ...options, platform: options.platform as Platform, reporter };
        if (options.redis) {
          const { exportFleet } = await import("./fleet/coordinator.js");
          setExitCode(await exportFleet({ ...args, redis: options.redis, workers: options.workers ?? 2, leaseSeconds: options.leaseSeconds ?? 15 }, io));
        } else if (options.workers !== undefined || options.leaseSeconds !== undefined) {
          throw new UsageError("--workers and --lease-seconds need --redis: worker processes share their queue, pacing and budget through Redis.");
        } else {
          const { exportLocal } = await import("./export/local.js");
          setExitCode(await exportLocal(args, io));
        }
      },
    );

  withConnection(
    program
      .command("worker")
      .summary("join a fleet export as a worker (any machine that reaches its Redis and its output folder)")
      .requiredOption("--export <id>", "the export id `content-scraper export --redis` printed")
      .requiredOption("--out <dir>", "this machine's path to the export's output folder (the coordinator's, shared)")
      .addOption(redisOption("the fleet's Redis (redis://host:6379)"))
      .option("--concurrency <n>", "creators exported at once (default: the export's)", integer("--concurrency", 1))
      .addOption(sharedOutOption()),
  ).action(async (options: CommonOptions & { redis?: string | true; export: string; out: string; concurrency?: number; allowSharedOut?: boolean }) => {
    const { runWorker } = await import("./fleet/worker.js");
    const code = await runWorker({ ...options, redis: options.redis ?? true }, io);
    setExitCode(code);
    // A worker leaves promptly, whatever its connections still hold open.
    setTimeout(() => process.exit(code), 2_000).unref();
  });

  withConnection(
    program
      .command("poll")
      .summary("walk every exported creator's catalog from its newest post to the ones its file holds, appending the new ones")
      .requiredOption("--platform <platform>", "the platform exported")
      .requiredOption("--out <dir>", "the export's output folder (a laptop's or a fleet's)")
      .option("--creators <file>", "poll only these creators")
      .option("--max-credits <n>", "stop before this poll's charges pass this many credits (the next poll goes on from there)", integer("--max-credits", 0))
      .option("--concurrency <n>", "creators polled at once", integer("--concurrency", 1), 4)
      .option("--json", "one JSON event per page and per creator, and a summary, on stdout")
      .addOption(sharedOutOption()),
  ).action(async (options: CommonOptions & { platform: string; out: string; creators?: string; maxCredits?: number; concurrency: number; json?: boolean; allowSharedOut?: boolean }) => {
    const { poll } = await import("./poll.js");
    setExitCode(await poll({ ...options, platform: options.platform as Platform, json: options.json === true }, io));
  });

  withConnection(program.command("profile").summary("a creator's profile, as JSON").argument("<platform>").argument("<username>")).action(
    async (platform: string, id: string, options: CommonOptions) => setExitCode(await oneOff({ command: "profile", platform: platform as Platform, id }, options, io)),
  );
  withConnection(
    program
      .command("posts")
      .summary("one page of a creator's posts, as JSON")
      .argument("<platform>")
      .argument("<username>")
      .option("--cursor <cursor>", "the next_cursor of the previous page"),
  ).action(async (platform: string, id: string, options: CommonOptions & { cursor?: string }) =>
    setExitCode(await oneOff({ command: "posts", platform: platform as Platform, id, cursor: options.cursor }, options, io)),
  );
  withConnection(
    program
      .command("post")
      .summary("one post by URL, as JSON")
      .argument("<platform>")
      .argument("<url>")
      .option("--include-transcript", "ask for the transcript where the platform has one")
      .option("--include-comments", "ask for a sample of top comments where the platform has them"),
  ).action(async (platform: string, id: string, options: CommonOptions & { includeTranscript?: boolean; includeComments?: boolean }) =>
    setExitCode(await oneOff({ command: "post", platform: platform as Platform, id, ...options }, options, io)),
  );
  return program;
}

/**
 * Runs the program on `argv`; answers the exit status. Errors are printed as one line (or JSON), never a stack, and
 * everything printed passes through the redactor.
 */
export async function run(argv: string[], io: Io = processIo()): Promise<number> {
  let code: number = exitCodes.ok;
  const program = buildProgram(io, (value) => {
    code = value;
  });
  try {
    await program.parseAsync(argv);
    return code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
    if (error instanceof UsageError || error instanceof ScraperInputError) {
      io.stderr(`content-scraper: ${error.message}\n`);
      return exitCodes.usage;
    }
    if (error instanceof ScraperApiError) {
      const { status, code: errorCode, requestId, message } = error;
      io.stderr(`${JSON.stringify({ error: { status, code: errorCode, requestId, message } })}\n`);
      return exitCodes.failed;
    }
    io.stderr(`content-scraper: ${error instanceof Error ? error.message : String(error)}\n`);
    return exitCodes.failed;
  }
}
