// `content-scraper-mock | head -1`: once the reader has gone, the sandbox stops quietly with status 141 (as SIGPIPE
// stops a Unix tool) instead of serving on with nowhere to write, or dying on an unhandled EPIPE.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const bin = fileURLToPath(new URL("../dist/bin/mock.js", import.meta.url));

it("content-scraper-mock into a closed pipe stops quietly", async () => {
  const child = spawn(process.execPath, [bin, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.destroy();
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const closed = once(child, "close");
  // Before the fix the sandbox served on: bound the wait, and stop it if it is still there.
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  const [code] = await closed;
  clearTimeout(timer);
  expect(stderr).toBe("");
  expect(code).toBe(141);
});
