import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { type CreditBudgetStore, createScraperClient, type RateLimitStore } from "@content-scraper/client";
import { ContentScraperError, Redactor } from "@content-scraper/runtime";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { serveHttp } from "./http.js";
import { createScraperMcp } from "./server.js";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

export const usage = `content-scraper-mcp ${version}: the Content Scraper API as MCP tools for an AI agent, within a hard credit allowance.

Usage: content-scraper-mcp --max-credits <n> [options]

  --max-credits <n>          the server's allowance: a call that would take its charges past n is refused
                             before it is sent (required)
  --session-max-credits <n>  each session's own allowance, inside the server's
  --allow <list>             the operations to expose, comma-separated, repeatable: operationIds
                             (shortvideoProfile), patterns (*Profile), tags ("Focused: shortvideo"), platforms
  --http                     serve Streamable HTTP on loopback (default: stdio)
  --host <host>              with --http: 127.0.0.1 (default), localhost or ::1
  --port <n>                 with --http: the port (default 4020; 0 picks a free one)
  --base-url <url>           the scraper base address, ending in /api/v1 (default: $SCRAPER_BASE_URL)
  --redis <url>              share the allowance with other servers, and the pacing with the CLI and its fleet;
                             its password from $CONTENT_SCRAPER_REDIS_PASSWORD, never in the URL
  --allowance-key <name>     the allowance's name in Redis (default: mcp)
  --requests-per-minute <n>  client-side pacing (default: the API's documented rate)
  --max-retries <n>          retries of a 429 or a refunded failure inside the server (default 2)
  --max-retry-wait-ms <n>    the longest wait before such a retry; a longer one is a tool error with
                             retryAfterMs (default 10000)
  --timeout-ms <n>           each request's time, from sending to the last byte (default: the API's
                             timeout for the platform)
  --assume-rate <n>          the credits one call costs your account, if you know it: the allowance counts
                             every call at least this much from the first
  --dry-run                  answer from the sandbox (@content-scraper/mock), without a key
  -h, --help                 this text
  --version                  the version

Environment:
  SCRAPER_API_KEY                 your scraper key (scrape_live_…); never an argument: argv is visible to every user
  SCRAPER_BASE_URL                the scraper base address, when --base-url is not given
  CONTENT_SCRAPER_REDIS_PASSWORD  the password of the Redis that --redis names (never in the URL on the command line)
`;

/** Bad arguments or environment: exit status 2, nothing sent. */
class UsageError extends Error {}

const integer = (flag: string, value: string | undefined, min: number): number | undefined => {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(parsed) || parsed < min) throw new UsageError(`${flag} must be an integer of at least ${min}.`);
  return parsed;
};

function parse(argv: readonly string[]) {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      "max-credits": { type: "string" },
      "session-max-credits": { type: "string" },
      allow: { type: "string", multiple: true },
      http: { type: "boolean" },
      host: { type: "string" },
      port: { type: "string" },
      "base-url": { type: "string" },
      redis: { type: "string" },
      "allowance-key": { type: "string" },
      "requests-per-minute": { type: "string" },
      "max-retries": { type: "string" },
      "max-retry-wait-ms": { type: "string" },
      "timeout-ms": { type: "string" },
      "assume-rate": { type: "string" },
      "dry-run": { type: "boolean" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean" },
    },
  });
  const maxCredits = integer("--max-credits", values["max-credits"], 0);
  if (!values.help && !values.version && maxCredits === undefined) {
    throw new UsageError("--max-credits is required: the most credits this server may spend (an agent never gets a key without an allowance).");
  }
  if (!values.http && (values.host !== undefined || values.port !== undefined)) throw new UsageError("--host and --port go with --http.");
  return {
    help: values.help === true,
    version: values.version === true,
    maxCredits: maxCredits as number,
    sessionMaxCredits: integer("--session-max-credits", values["session-max-credits"], 0),
    allow: values.allow?.flatMap((list) => list.split(",")),
    http: values.http === true,
    host: values.host,
    port: integer("--port", values.port, 0) ?? 4020,
    baseUrl: values["base-url"],
    redis: values.redis,
    allowanceKey: values["allowance-key"] ?? "mcp",
    requestsPerMinute: integer("--requests-per-minute", values["requests-per-minute"], 1),
    maxRetries: integer("--max-retries", values["max-retries"], 0) ?? 2,
    maxRetryWaitMs: integer("--max-retry-wait-ms", values["max-retry-wait-ms"], 0) ?? 10_000,
    timeoutMs: integer("--timeout-ms", values["timeout-ms"], 1),
    assumeRate: integer("--assume-rate", values["assume-rate"], 1),
    dryRun: values["dry-run"] === true,
  };
}

type Options = ReturnType<typeof parse>;

/** An optional peer, loaded when a flag needs it; its absence is a usage error saying what to install. */
async function load<Module>(name: string, flag: string, importer: () => Promise<Module>): Promise<Module> {
  try {
    return await importer();
  } catch (error) {
    if ((error as { code?: string }).code !== "ERR_MODULE_NOT_FOUND") throw error;
    throw new UsageError(`${flag} needs ${name}: npm install ${name}`);
  }
}

/**
 * The Redis that `--redis` names, as the CLI reads it: a password in the URL is refused (argv is visible to every user
 * of the machine), and comes from $CONTENT_SCRAPER_REDIS_PASSWORD instead.
 */
async function redisConnection(option: string) {
  const { commandLineRedisUrl, createRedisStores } = await load("@content-scraper/redis-store", "--redis", () => import("@content-scraper/redis-store"));
  return { url: commandLineRedisUrl("--redis", option, process.env), createRedisStores };
}

/** What the server runs on: the key and address (or the sandbox's), the stores, and what to close at the end. */
async function connection(options: Options, log: (line: string) => void) {
  const closers: Array<() => Promise<void>> = [];
  // Read first, so that a password on the command line is refused before anything starts.
  const redis = options.redis === undefined ? undefined : await redisConnection(options.redis);
  let apiKey = process.env.SCRAPER_API_KEY;
  let baseUrl = options.baseUrl ?? process.env.SCRAPER_BASE_URL;
  if (options.dryRun) {
    const { startMock } = await load("@content-scraper/mock", "--dry-run", () => import("@content-scraper/mock"));
    const sandbox = await startMock({ port: 0 });
    closers.push(() => sandbox.close());
    // The sandbox takes any scraper key; the real one stays out of it.
    apiKey = "scrape_live_dry_run";
    baseUrl = sandbox.baseUrls.scraper;
  } else if (!apiKey) {
    throw new UsageError("SCRAPER_API_KEY is not set: export your scraper key (scrape_live_…), or try --dry-run.");
  } else if (!baseUrl) {
    throw new UsageError("--base-url is required (or SCRAPER_BASE_URL): the scraper base address, ending in /api/v1.");
  }
  let stores: { rateLimit?: RateLimitStore; budget?: CreditBudgetStore } = {};
  if (redis) {
    const opened = redis.createRedisStores({
      redis: redis.url,
      onUnavailable: (error) => log(`Redis is unreachable (${error.message}): calls are refused until it answers`),
      onRecovered: () => log("Redis answers again"),
    });
    closers.push(() => opened.close());
    stores = opened;
  }
  const password = redis ? new URL(redis.url).password : "";
  const secrets = new Redactor([apiKey, password, decodeURIComponent(password)]);
  return { apiKey, baseUrl, stores, secrets, close: () => Promise.all(closers.map((close) => close())) };
}

/** Resolves at SIGINT or SIGTERM, or when `also` does. */
const untilStopped = (also?: Promise<unknown>) =>
  new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
    also?.then(() => resolve());
  });

/** The `content-scraper-mcp` command: its exit status (0 after a clean stop, 2 on bad arguments or environment). */
export async function main(argv: readonly string[]): Promise<number> {
  const log = (line: string) => void process.stderr.write(`content-scraper-mcp: ${line}\n`);
  let close: (() => Promise<unknown>) | undefined;
  try {
    const options = parse(argv);
    if (options.help || options.version) {
      process.stdout.write(options.help ? usage : `${version}\n`);
      return 0;
    }
    const { apiKey, baseUrl, stores, secrets, close: closeConnection } = await connection(options, log);
    close = closeConnection;
    const client = createScraperClient({
      apiKey,
      baseUrl,
      rateLimit: { requestsPerMinute: options.requestsPerMinute, store: stores.rateLimit },
      budget: { maxCredits: options.maxCredits, store: stores.budget, key: stores.budget ? options.allowanceKey : undefined },
      retry: { maxRetries: options.maxRetries },
      maxRetryWaitMs: options.maxRetryWaitMs,
      timeoutMs: options.timeoutMs,
      assumeRate: options.assumeRate,
      logger: { warn: log, error: log },
    });
    const mcp = await createScraperMcp({ client, allow: options.allow, sessionMaxCredits: options.sessionMaxCredits, sandbox: options.dryRun, redactor: secrets });
    if (options.http) {
      const server = await serveHttp(mcp, { host: options.host, port: options.port });
      log(`Streamable HTTP at ${server.url}${options.dryRun ? " (dry run: the sandbox answers)" : ""}`);
      await untilStopped();
      await server.close();
    } else {
      const transport = new StdioServerTransport();
      const ended = new Promise((resolve) => process.stdin.once("end", resolve));
      await mcp.session().connect(transport);
      await untilStopped(ended);
      await transport.close();
    }
    return 0;
  } catch (error) {
    // McpInputError, the client's and the stores' refusals of an option: all ContentScraperErrors, redacted already.
    if (error instanceof UsageError || error instanceof ContentScraperError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      log((error as Error).message);
      return 2;
    }
    throw error;
  } finally {
    await close?.();
  }
}
