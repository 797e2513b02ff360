#!/usr/bin/env node
import { exitCodes } from "./exit-codes.js";
import { processIo } from "./io.js";
import { run } from "./program.js";

const io = processIo();
// Whatever escapes (a dependency's stray rejection) is one redacted line and status 1, never a stack.
const fatal = (error: unknown) => {
  io.stderr(`content-scraper: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
};
process.on("uncaughtException", fatal);
process.on("unhandledRejection", fatal);

// A reader that stops early (`content-scraper --help | head`) closes the pipe: end quietly, as a Unix tool that SIGPIPE
// stops does, instead of dying on an unhandled EPIPE. An export stopped this way continues when run again.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(exitCodes.closedOutput);
  });
}

process.exitCode = await run(process.argv, io);
