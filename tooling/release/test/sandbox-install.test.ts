// The sandbox as a partner installs it: its tarball with the spec's and the validators' beside it, `npm install
// --engine-strict` on this Node (20.x in CI), into a fresh project. The install must succeed, run no install script,
// bring no `@types/*` package, stay small, and `npx @content-scraper/mock` (the README's command) must stop when npx is
// signalled.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { tempDir } from "../src/packages.mjs";

const run = promisify(execFile);
const project = tempDir("sandbox-install");
const wanted = ["@content-scraper/mock", "@content-scraper/spec", "@content-scraper/validators"];
const tarballs = inject("packed").packed.filter((p) => wanted.includes(p.name)).map((p) => p.tarball);
// The targets for a partner's install, keeping Prism as the engine.
const maxPackages = 80;
const maxBytes = 40 * 1024 * 1024;

type Lock = { packages: Record<string, { hasInstallScript?: boolean; dev?: boolean }> };
let lock: Lock;

beforeAll(async () => {
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "partner", private: true, type: "module" }));
  await run("npm", ["install", "--engine-strict", "--no-audit", "--no-fund", "--loglevel=error", ...tarballs], {
    cwd: project,
    maxBuffer: 64 * 1024 * 1024,
  });
  lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8"));
});

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

/** Bytes of every file below `dir`. */
function size(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
    const path = join(dir, entry.name);
    return sum + (entry.isDirectory() ? size(path) : entry.isFile() ? statSync(path).size : 0);
  }, 0);
}

const installed = () => Object.keys(lock.packages).filter((path) => path !== "");

it("installs with --engine-strict on this Node, and stays lean", () => {
  expect(tarballs).toHaveLength(wanted.length);
  const count = installed().length;
  const bytes = size(join(project, "node_modules"));
  console.log(`sandbox install on Node ${process.version}: ${count} packages, ${(bytes / 1024 / 1024).toFixed(1)} MB`);
  expect(count).toBeLessThan(maxPackages);
  expect(bytes).toBeLessThan(maxBytes);
});

it("runs no install script and brings no @types package", () => {
  expect(installed().filter((path) => lock.packages[path]?.hasInstallScript)).toEqual([]);
  expect(installed().filter((path) => path.includes("node_modules/@types/"))).toEqual([]);
});

// `kill <pid>` signals npx alone; Ctrl-C in a terminal signals its whole process group. npx runs the bin through
// `sh -c`, which passes neither on; the sandbox stops when that shell goes. (A SIGINT to npx's pid alone reaches no one:
// npm passes it to the shell, and dash holds it until its child exits.)
describe.each([
  ["SIGTERM", "npx's pid (kill)"],
  ["SIGINT", "npx's process group (Ctrl-C)"],
  ["SIGTERM", "npx's process group"],
] as const)("npx @content-scraper/mock, sent %s to %s", (signal, target) => {
  let npx: ChildProcess;
  afterAll(() => {
    // Whatever a failed test left of the group (npx, its shell, the sandbox); after a pass, nothing is left.
    try {
      process.kill(-(npx.pid as number), "SIGKILL");
    } catch {}
  });

  it("stops the sandbox, not only npx", async () => {
    // Detached: npx leads a process group of its own, as a job in a terminal does.
    npx = spawn("npx", ["@content-scraper/mock", "--port", "0"], { cwd: project, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let output = "";
    const url = await new Promise<URL>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk;
        const found = /scraper\s+(http\S+)/.exec(output);
        if (found) resolve(new URL(found[1] as string));
      };
      npx.stdout?.on("data", read);
      npx.stderr?.on("data", read);
      npx.once("exit", () => reject(new Error(`npx exited before the sandbox started:\n${output}`)));
    });
    const port = Number(url.port);
    expect(await accepts(port)).toBe(true);
    const exited = once(npx, "exit");
    process.kill(target.includes("group") ? -(npx.pid as number) : (npx.pid as number), signal);
    await exited;
    // The sandbox notices that the process that started it is gone: give it a generous while on a busy machine.
    const deadline = Date.now() + 20_000;
    while ((await accepts(port)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await accepts(port), output).toBe(false);
  });
});

/** Whether something listens on the loopback port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
