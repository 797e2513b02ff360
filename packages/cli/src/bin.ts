#!/usr/bin/env node
import { exitCodes } from "./exit-codes.js";
import { run } from "./program.js";

// A reader that stops early (`content-scraper --help | head`) closes the pipe: end quietly, as a Unix tool that SIGPIPE
// stops does, instead of dying on an unhandled EPIPE. An export stopped this way continues when run again.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(exitCodes.closedOutput);
  });
}

process.exitCode = await run(process.argv);
