// The built bin, as `pnpm mock` runs it: prints its base URLs, serves, and stops cleanly on SIGINT and SIGTERM.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { networkInterfaces } from "node:os";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, expect, it, vi } from "vitest";

// Each test starts Prism in a fresh process: allow for a machine busy with other suites.
vi.setConfig({ testTimeout: 90_000 });

const bin = fileURLToPath(new URL("../dist/bin/mock.js", import.meta.url));
let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill("SIGKILL");
});

/** Waits until the bin has printed `pattern`. */
async function printed(child: ChildProcess, output: () => string, pattern: RegExp): Promise<void> {
  for (let waited = 0; !pattern.test(output()); waited += 50) {
    if (waited > 60_000 || child.exitCode !== null) throw new Error(`the mock did not print ${pattern}:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts the bin and resolves with its scraper base URL once it has printed its banner. */
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
  await printed(started, () => output, /Ctrl-C stops it/);
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

it("warns when it listens beyond loopback, prints every address it is reached at and the control token it wants", async () => {
  const { child, scraper, output } = await run("--host", "0.0.0.0", "--port", "0");
  // The warning goes to stderr, which may come in after the banner.
  await printed(child, output, /warning/);
  const port = new URL(scraper).port;
  const lan = Object.values(networkInterfaces()).flatMap((entries) => entries ?? []).filter((entry) => entry.family === "IPv4" && !entry.internal);
  expect(output()).toContain("warning: listening on 0.0.0.0, beyond loopback");
  for (const { address } of [{ address: "127.0.0.1" }, ...lan]) expect(output()).toContain(`http://${address}:${port}`);
  const token = /Authorization: Bearer (\S+)/.exec(output())?.[1] as string;
  expect(token).toMatch(/^[\w-]{43}$/);

  const clock = (env: NodeJS.ProcessEnv) => promisify(execFile)(process.execPath, [bin, "clock", "--url", `http://127.0.0.1:${port}`], { env: { ...process.env, ...env } });
  const refused = await clock({}).then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  );
  expect([refused?.code, refused?.stderr]).toEqual([1, expect.stringContaining("content-scraper-mock clock: Authorization: ")]);
  expect((await clock({ CONTENT_SCRAPER_MOCK_CONTROL_TOKEN: token })).stdout).toContain("sandbox clock:");
  child.kill("SIGTERM");
  expect((await once(child, "exit"))[0]).toBe(0);
});

it("keeps quiet about addresses and tokens on loopback", async () => {
  const { child, output } = await run("--port", "0");
  expect(output()).not.toMatch(/warning|Reachable at|Bearer/);
  child.kill("SIGTERM");
  await once(child, "exit");
});
