// `content-scraper --help | head`: the reader closes the pipe before the CLI has written. The CLI stops quietly with
// status 141 (as SIGPIPE stops a Unix tool), not with an unhandled EPIPE and a stack on stderr.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { expect, test } from "vitest";
import { exitCodes } from "../src/exit-codes.js";
import { bin } from "./harness.js";

test.each([["--help"], ["export", "--help"]])("content-scraper %s into a closed pipe exits quietly", async (...args) => {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  // Closed before the CLI has started: its first write meets a pipe with no reader.
  child.stdout.destroy();
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const [code] = await once(child, "close");
  expect(stderr).toBe("");
  expect(code).toBe(exitCodes.closedOutput);
});
