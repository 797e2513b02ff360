// A consumer's view: the packed tarballs installed with npm into fresh temporary projects (pnpm pack rewrote the
// workspace: ranges; third-party dependencies come from the registry), type-checked as a Node-only project would
// (`lib: ["ES2023"]`, @types/node 20, `skipLibCheck: false`, no DOM library), and run.
//  - every package at once: an ESM script that uses every entry point, and a TypeScript file over their declarations;
//  - the client alone, beside only the tarballs of the packages it depends on: what it installs, and a profile() call.
import { execFile } from "node:child_process";
import { copyFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { type RunningMock, startMock } from "@content-scraper/mock";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { tempDir, withDependencies } from "../src/packages.mjs";

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const { packed } = inject("packed");
const tsc = join(dirname(require.resolve("typescript/package.json")), "bin/tsc");

/** A fresh project: the tarballs installed with npm, and a strict Node-only tsconfig over `files`. */
async function freshProject(name: string, tarballs: string[], files: string[], outDir?: string): Promise<string> {
  const project = tempDir(name);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  await run("npm", ["install", "--engine-strict", "--no-audit", "--no-fund", "--loglevel=error", ...tarballs], { cwd: project, maxBuffer: 64 * 1024 * 1024 });
  for (const file of files) copyFileSync(join(import.meta.dirname, "consumer", file), join(project, file));
  const compilerOptions = {
    strict: true,
    module: "NodeNext",
    moduleResolution: "NodeNext",
    target: "ES2023",
    lib: ["ES2023"],
    types: ["node"],
    // The repository's @types/node (20.x, the catalog's), so the project needs nothing else from the registry.
    typeRoots: [join(dirname(require.resolve("@types/node/package.json")), "..")],
    skipLibCheck: false,
    ...(outDir ? { outDir } : { noEmit: true }),
  };
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, files: files.filter((file) => file.endsWith(".ts")) }));
  return project;
}

/** tsc's report on the project: empty when it type-checks. */
async function typeCheck(project: string): Promise<string> {
  const { stdout } = await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: project }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
  return stdout;
}

describe("every published package, installed together", () => {
  let project: string;
  beforeAll(async () => {
    project = await freshProject("consumer", packed.map((p) => p.tarball), ["smoke.mjs", "types.ts"]);
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it("installs every published package from its tarball", () => {
    expect(packed.length).toBeGreaterThanOrEqual(7);
  });

  it("runs an ESM script against every entry point, offline", async () => {
    const { stdout } = await run(process.execPath, ["smoke.mjs"], { cwd: project });
    console.log(stdout);
    expect(stdout).toContain("mock: startMock");
    expect(stdout).toContain("client/validate: drift caught");
    expect(stdout).toContain("client/api: the typed door");
    expect(stdout).toContain("client/focused: a focused operation");
    expect(stdout).toContain("client/operations: an operation by its operationId");
    expect(stdout).toContain("mcp: createScraperMcp lists the profile tools");
  });

  it("type-checks a TypeScript consumer over every entry's declarations (Node-only, skipLibCheck off)", async () => {
    expect(await typeCheck(project)).toBe("");
  });

  it("fails the same check on a name only the DOM library declares", async () => {
    writeFileSync(join(project, "dom.ts"), 'export const redirect: RequestRedirect = "manual";\n');
    writeFileSync(join(project, "dom.json"), JSON.stringify({ extends: "./tsconfig.json", files: ["dom.ts"] }));
    const { stdout } = await run(process.execPath, [tsc, "-p", "dom.json"], { cwd: project }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    expect(stdout).toContain("Cannot find name 'RequestRedirect'");
  });
});

describe("the client alone, beside only the packages it depends on", () => {
  let project: string;
  let mock: RunningMock;
  let installed: string[];
  beforeAll(async () => {
    installed = (await withDependencies("@content-scraper/client", packed)).map((p) => p.name);
    const tarballs = packed.filter((p) => installed.includes(p.name)).map((p) => p.tarball);
    [project, mock] = await Promise.all([freshProject("client-alone", tarballs, ["profile.ts"], "out"), startMock({ port: 0, timeScale: 0 })]);
  });
  afterAll(async () => {
    await mock?.close();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it("needs the runtime's tarball and no other of ours (the validators are an optional peer)", () => {
    expect(installed.sort()).toEqual(["@content-scraper/client", "@content-scraper/runtime"]);
  });

  it("installs at most 6 third-party packages", async () => {
    const { stdout } = await run("npm", ["ls", "--all", "--parseable"], { cwd: project, maxBuffer: 16 * 1024 * 1024 });
    const names = new Set(
      stdout
        .split("\n")
        .slice(1)
        .filter(Boolean)
        .map((path) => path.split("node_modules/").at(-1) as string),
    );
    const thirdParty = [...names].filter((name) => !name.startsWith("@content-scraper/"));
    console.log(`third-party packages installed with the client: ${thirdParty.length} (${thirdParty.join(", ")})`);
    expect(thirdParty.length).toBeLessThanOrEqual(6);
    expect(readdirSync(join(project, "node_modules/@content-scraper")).sort()).toEqual(["client", "runtime"]);
  });

  it("type-checks and runs a profile() call, one through client/api and one through client/focused against the sandbox (Node-only, skipLibCheck off)", async () => {
    expect(await typeCheck(project)).toBe("");
    const env = { ...process.env, SCRAPER_API_KEY: "scrape_live_consumer", SCRAPER_BASE_URL: mock.baseUrls.scraper as string };
    const { stdout } = await run(process.execPath, ["out/profile.js"], { cwd: project, env, timeout: 30_000 });
    expect(JSON.parse(stdout)).toMatchObject({ username: expect.any(String), creditsCharged: 1, apiStatus: 200, focusedCharged: 1, ledger: 3 });
  });
});
