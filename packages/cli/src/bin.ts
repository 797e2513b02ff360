#!/usr/bin/env node
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
process.exitCode = await run(process.argv, io);
