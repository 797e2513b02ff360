// The built bin, as `pnpm mock` runs it: prints its base URLs, serves, and stops cleanly on SIGINT and SIGTERM.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it, vi } from "vitest";

// Each test starts Prism in a fresh process: allow for a machine busy with other suites.
vi.setConfig({ testTimeout: 90_000 });

const bin = fileURLToPath(new URL("../dist/bin/mock.js", import.meta.url));
let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill("SIGKILL");
});

/** Starts the bin and resolves with its scraper base URL once it prints it. */
async function run(...args: string[]): Promise<{ child: ChildProcess; scraper: string; output: () => string }> {
  const started = spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  child = started;
  let output = "";
  started.stdout?.on("data", (chunk: Buffer) => {
    output += chunk;
  });
  started.stderr?.on("data", (chunk: Buffer) => {
    output += chunk;
  });
  for (let waited = 0; !/scraper\s+(http\S+)/.test(output); waited += 50) {
    if (waited > 60_000 || started.exitCode !== null) throw new Error(`the mock did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child: started, scraper: /scraper\s+(http\S+)/.exec(output)?.[1] as string, output: () => output };
}

it.each(["SIGINT", "SIGTERM"] as const)("serves from the bin and stops cleanly on %s", async (signal) => {
  const { child, scraper, output } = await run("--port", "0", "--seed", "cli");
  expect(scraper).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
  const response = await fetch(`${scraper}/scrape/shortvideo/profile`, {
    method: "POST",
    headers: { "x-api-key": "scrape_live_cli", "content-type": "application/json" },
    body: JSON.stringify({ username: "creator" }),
  });
  expect(response.status).toBe(200);
  child.kill(signal);
  const [code] = await once(child, "exit");
  expect(code, output()).toBe(0);
});

it("accepts the separator pnpm passes through, and rejects a bad option value", async () => {
  const { child } = await run("--", "--port", "0", "--dynamic");
  child.kill("SIGTERM");
  expect((await once(child, "exit"))[0]).toBe(0);

  const failed = spawn(process.execPath, [bin, "--port", "many"], { stdio: ["ignore", "ignore", "pipe"] });
  let error = "";
  failed.stderr?.on("data", (chunk: Buffer) => {
    error += chunk;
  });
  expect((await once(failed, "exit"))[0]).not.toBe(0);
  expect(error).toContain("--port must be a non-negative number");
});
