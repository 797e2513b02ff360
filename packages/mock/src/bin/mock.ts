#!/usr/bin/env node
// content-scraper-mock [--port 4010] [--host 127.0.0.1] [--control-token-file F] [--seed sandbox] [--dynamic] [--credits N] [--rate-limit N] [--time-scale X]
// content-scraper-mock <reset|advance|clock|balance|log|fault|faults> … (the control API of a running sandbox)
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { controlToken, controlTokenVariable, refuseMoved, UsageError } from "../control/command-line.js";
import { commandNames, commandsUsage, runCommand } from "../control/commands.js";
import { SandboxControlError } from "../control/plane.js";
import { controlPath } from "../control/routes.js";

// A reader that stops early (`content-scraper-mock --help | head`) closes the pipe: end quietly, as a Unix tool that
// SIGPIPE stops does (status 128 + 13), instead of dying on an unhandled EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(141);
  });
}

const usage = `usage: content-scraper-mock [--port 4010] [--host 127.0.0.1] [--control-token-file <path>] [--seed <text>] [--dynamic]
                            [--credits <n>] [--rate-limit <per minute>] [--time-scale <x>]
       content-scraper-mock <command> …

The control token, if you give one, comes from $${controlTokenVariable} or a file of mode 0600
(--control-token-file), never the command line.

${commandsUsage}`;

/** A usage mistake: said in one line with the usage, exit status 2. */
function refuse(message: string): never {
  console.error(`content-scraper-mock: ${message}\n${usage}`);
  process.exit(2);
}

function number(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isFinite(parsed) || parsed < 0) refuse(`--${name} must be a non-negative number`);
  return parsed;
}

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      options: {
        port: { type: "string", default: "4010" },
        host: { type: "string", default: "127.0.0.1" },
        // Taken only to be refused: see command-line.ts.
        "control-token": { type: "string" },
        "control-token-file": { type: "string" },
        seed: { type: "string" },
        dynamic: { type: "boolean", default: false },
        credits: { type: "string" },
        "rate-limit": { type: "string" },
        "time-scale": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    }).values;
  } catch (error) {
    return refuse((error as Error).message);
  }
}

// `pnpm mock -- --port 4010` may hand the separator through.
const args = process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === "--"));
const command = commandNames.find((name) => name === args[0]);
if (command) {
  try {
    await runCommand(command, args.slice(1));
    process.exit(0);
  } catch (error) {
    // A mistake in the call (SandboxControlError names the field) or no sandbox at the URL: one line, exit status 1.
    // Unusable flags or environment, found before anything is sent (UsageError, parseArgs's errors): exit status 2.
    console.error(`content-scraper-mock ${command}: ${error instanceof SandboxControlError ? `${error.field}: ` : ""}${(error as Error).message}`);
    process.exit(error instanceof UsageError || (error instanceof TypeError && "code" in error) ? 2 : 1);
  }
}
const values = parse(args);
if (values.help) {
  console.log(usage);
  process.exit(0);
}

/** The control token, if one is given: from the file or the environment, never the command line. */
function givenControlToken(): string | undefined {
  try {
    refuseMoved("--control-token", values["control-token"]);
    return controlToken(values["control-token-file"], process.env);
  } catch (error) {
    if (error instanceof UsageError) refuse(error.message);
    throw error;
  }
}

const options = {
  port: number("port", values.port),
  host: values.host,
  controlToken: givenControlToken(),
  seed: values.seed,
  dynamic: values.dynamic,
  credits: number("credits", values.credits),
  requestsPerMinute: number("rate-limit", values["rate-limit"]),
  timeScale: number("time-scale", values["time-scale"]),
};
// Run by a package manager (`npx @content-scraper/mock`, `pnpm mock`), the sandbox is the child of a shell that the
// package manager signals and that does not pass the signal on: when that shell goes, or the package manager above it
// (the shell may outlive it for a while), the sandbox stops with them instead of serving on as an orphan. Both are
// noted now: whoever reads the banner may stop the package manager at once, before the sandbox runs another line.
const launchers = process.env.npm_command || process.env.npm_lifecycle_event ? { shell: process.ppid, manager: parentOf(process.ppid) } : undefined;

// Loaded once the arguments are known to be usable.
const { startMock } = await import("../index.js");
const mock = await startMock(options).catch((error: Error) => {
  console.error(`content-scraper-mock: cannot start: ${error.message}`);
  return process.exit(1);
});

const { prismVersion } = await import("../prism-version.js");
const mode = values.dynamic ? `dynamic payloads, seed "${values.seed ?? "sandbox"}"` : "the description's examples";
console.log(`Content Scraper sandbox on Prism ${prismVersion}, serving ${mode}:`);
for (const [surface, url] of Object.entries(mock.baseUrls)) console.log(`  ${surface.padEnd(14)} ${url}`);
if (mock.beyondLoopback) {
  // Every machine that reaches this one reaches the sandbox: say so, and where.
  console.error(`content-scraper-mock: warning: listening on ${values.host}, beyond loopback: other machines can call this sandbox.`);
  console.log(`Reachable at ${mock.origins.join(", ")}`);
}
if (mock.controlToken !== undefined) {
  const token = options.controlToken === undefined ? mock.controlToken : "<the token you gave>";
  console.log(`Control API (${controlPath}): send Authorization: Bearer ${token} (the commands read $${controlTokenVariable} or --control-token-file).`);
}
console.log("Keys, magic inputs and options: see the @content-scraper/mock README. Ctrl-C stops it.");

let stopping = false;
function stop(): void {
  if (stopping) process.exit(1); // a second signal: stop now
  stopping = true;
  // A close that hangs (a client holding the port open) must not keep an orphaned sandbox serving.
  setTimeout(() => process.exit(0), 2000).unref();
  mock.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, stop);

if (launchers) {
  const { shell, manager } = launchers;
  setInterval(() => {
    if (process.ppid !== shell || (manager !== undefined && !alive(manager))) stop();
  }, 250).unref();
}

/** The parent of `pid`, where the system says (Linux's /proc); `undefined` elsewhere. */
function parentOf(pid: number): number | undefined {
  try {
    // The fields after the command's closing parenthesis: state, then the parent's pid.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return Number.isInteger(ppid) && ppid > 1 ? ppid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
