// The release against a real registry. Verdaccio runs on loopback; on a throwaway copy of the workspace, `changeset
// version` runs, then the release script publishes (provenance off, as on a maintainer's machine). The published
// packages are installed from that registry with npm, pnpm, Yarn and Bun, each into a fresh project, where a script
// uses every entry point against the sandbox, the bins answer (a profile call against the sandbox the mock's bin
// started), and tsc --strict checks a consumer of every declaration with node16 and bundler resolution, under TypeScript 7
// on every manager's layout and TypeScript 5 on pnpm's. The four managers install and run at once. From npm's project,
// the runtime matrix runs one conformance script on every runtime (`@content-scraper/runtime-matrix`).
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { appendFileSync, copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { startMock } from "@content-scraper/mock";
import { expectConformance, type Results, runtimes } from "@content-scraper/runtime-matrix/expectations";
import { startHostileServer } from "@content-scraper/runtime-matrix/hostile-server";
import { runMatrix } from "@content-scraper/runtime-matrix/runtimes";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import { type LocalRegistry, startLocalRegistry } from "../src/local-registry.mjs";
import { publishedPackages, ROOT, tempDir } from "../src/packages.mjs";
import { rangeProblems } from "../src/ranges.mjs";
import { commit, workspaceCopy } from "../src/workspace-copy.mjs";
import { binCommand, type Command, configure, installCommand, type Manager, managers } from "./package-managers.js";

// Installs from the npm registry, on a machine busy with other suites.
vi.setConfig({ testTimeout: 300_000 });

const execFileAsync = promisify(execFile);
const TYPESCRIPT_7 = "7.0.2";
const catalog = (parse(readFileSync(join(ROOT, "pnpm-workspace.yaml"), "utf8")) as { catalog: Record<string, string> }).catalog;
const resolutions = {
  node16: { module: "node16", moduleResolution: "node16" },
  bundler: { module: "preserve", moduleResolution: "bundler" },
} as const;
// TypeScript 7 checks every manager's layout. TypeScript 5, six times its CPU here, checks pnpm's (links and no
// hoisting, the strictest); the consumer test checks npm's with it.
const compilers = (manager: Manager) => (manager === "pnpm" ? ["typescript7", "typescript"] : ["typescript7"]);

// What the machine's environment says about the CI it runs in, and what a package manager tells the scripts it runs,
// are not a maintainer's shell: leave them out.
const ciVariables = /^(npm_|pnpm_|GITHUB_ACTIONS$|ACTIONS_ID_TOKEN_|GITLAB_CI$|SIGSTORE_ID_TOKEN$)/i;
const shell: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !ciVariables.test(name)));

/** Runs a command line; answers its output, or throws with it. */
async function exec([file, ...args]: Command, cwd: string, env: NodeJS.ProcessEnv = shell) {
  try {
    return await execFileAsync(file, args, { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: 240_000 });
  } catch (error) {
    const failed = error as Error & { stdout?: string; stderr?: string };
    throw new Error(`${[file, ...args].join(" ")} failed: ${failed.message}\n${failed.stdout ?? ""}\n${failed.stderr ?? ""}`);
  }
}

const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10;
const timings: string[] = [];
const temporary: string[] = [];
let registry: LocalRegistry | undefined;
let published: Map<string, string>;
let publishOutput: string;
const projects = new Map<Manager, Promise<string>>();
/** The runtime matrix, run from npm's project as soon as it is installed, while the other managers' tests go on. */
const matrix: {
  results?: Promise<Record<string, Results>>;
  sandbox?: Awaited<ReturnType<typeof startMock>>;
  hostile?: Awaited<ReturnType<typeof startHostileServer>>;
} = {};

beforeAll(async () => {
  let since = performance.now();
  const [started, copy] = await Promise.all([startLocalRegistry(), workspaceCopy()]);
  registry = started;
  temporary.push(copy);
  timings.push(`registry and workspace copy ${seconds(since)} s`);

  since = performance.now();
  await exec([process.execPath, join(copy, "node_modules/@changesets/cli/bin.js"), "version"], copy);
  await commit(copy, "version packages");
  appendFileSync(join(copy, ".npmrc"), `\n${registry.authLine}\n`);
  const { stdout, stderr } = await exec([process.execPath, join(copy, "tooling/release/src/publish.mjs")], copy, { ...shell, npm_config_registry: registry.url });
  publishOutput = `${stdout}\n${stderr}`;
  timings.push(`changeset version and publish ${seconds(since)} s`);
  const versionOf = (rel: string) => (JSON.parse(readFileSync(join(copy, rel, "package.json"), "utf8")) as { version: string }).version;
  published = new Map(publishedPackages().map((p) => [p.name, versionOf(p.rel)]));

  for (const manager of managers) {
    const project = consumerProject(manager, registry.url);
    project.catch(() => {}); // reported by the tests that await it
    projects.set(manager, project);
  }
  matrix.results = runtimeMatrix(projects.get("npm") as Promise<string>);
  matrix.results.catch(() => {}); // reported by the tests that await it
}, 300_000);

/** The runtime matrix from npm's project, once it is installed, against a sandbox and a hostile server of its own. */
async function runtimeMatrix(project: Promise<string>): Promise<Record<string, Results>> {
  [matrix.sandbox, matrix.hostile] = await Promise.all([startMock({ port: 0 }), startHostileServer()]);
  const targets = { sandbox: matrix.sandbox.url, baseUrls: matrix.sandbox.baseUrls, hostile: matrix.hostile.origin, browser: false };
  const cwd = await project;
  const since = performance.now();
  const results = await runMatrix(cwd, targets);
  timings.push(`runtime matrix ${seconds(since)} s`);
  return results;
}

afterAll(async () => {
  await Promise.allSettled([...projects.values(), matrix.results]);
  await Promise.allSettled([matrix.sandbox?.close(), matrix.hostile?.close()]);
  await registry?.stop();
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  console.log(`registry test: ${timings.join("; ")}`);
});

/** A fresh project that depends on every published package and both TypeScripts, installed by `manager`. */
async function consumerProject(manager: Manager, registryUrl: string): Promise<string> {
  const project = tempDir(`registry-${manager}`);
  temporary.push(project);
  const dependencies = Object.fromEntries([...published].map(([name, version]) => [name, `^${version}`]));
  const typescripts = { typescript: catalog.typescript, typescript7: `npm:typescript@${TYPESCRIPT_7}` };
  const devDependencies = { "@types/node": catalog["@types/node"], ...Object.fromEntries(compilers(manager).map((name) => [name, typescripts[name as keyof typeof typescripts]])) };
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: `consumer-${manager}`, private: true, type: "module", dependencies, devDependencies }));
  configure(manager, project, registryUrl);
  for (const file of ["smoke.mjs", "types.ts"]) copyFileSync(join(import.meta.dirname, "consumer", file), join(project, file));
  for (const [name, resolution] of Object.entries(resolutions)) {
    const compilerOptions = { strict: true, ...resolution, target: "ES2023", lib: ["ES2023"], types: ["node"], skipLibCheck: false, noEmit: true };
    writeFileSync(join(project, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, files: ["types.ts"] }));
  }
  const since = performance.now();
  await exec(installCommand(manager), project);
  timings.push(`${manager} install ${seconds(since)} s`);
  return project;
}

it("publishes every package at the version `changeset version` gave it, with provenance off and one line saying so", async () => {
  expect(publishOutput).toMatch(/^provenance: off, no OIDC provider here/m);
  expect(published.size).toBe(publishedPackages().length);
  for (const [name, version] of published) {
    const packument = (await (await fetch(new URL(name.replace("/", "%2f"), registry?.url))).json()) as {
      "dist-tags": { latest: string };
      versions: Record<string, Record<string, unknown>>;
    };
    expect(packument["dist-tags"].latest, name).toBe(version);
    expect(rangeProblems(packument.versions[version] ?? {}, published), name).toEqual([]);
  }
  console.log(`published: ${[...published].map(([name, version]) => `${name}@${version}`).join(", ")}`);
});

it("runs the READMEs' npx commands from a folder where nothing is installed", async () => {
  const empty = tempDir("registry-npx");
  temporary.push(empty);
  configure("npm", empty, registry?.url as string);
  // A cache of its own: npx keeps what it ran by name, and an earlier run published these names and versions too.
  const env = { ...shell, npm_config_cache: join(empty, ".npm-cache") };
  const mock = await exec(["npx", "--yes", "@content-scraper/mock", "--help"], empty, env);
  expect(mock.stdout).toContain("usage: content-scraper-mock");
  const cli = await exec(["npx", "--yes", "@content-scraper/cli", "--help"], empty, env);
  expect(cli.stdout).toContain("Usage: content-scraper");
});

describe.concurrent.each(managers)("installed with %s", (manager) => {
  const project = () => projects.get(manager) as Promise<string>;

  it("runs a script over every entry point against the sandbox", async () => {
    const { stdout } = await exec([process.execPath, "smoke.mjs"], await project());
    expect(stdout).toContain("mock: startMock");
    expect(stdout).toContain("cli: content-scraper profile against the sandbox");
  });

  it("runs the bins: both --help, and a profile call against the sandbox the mock's bin started", async () => {
    const cwd = await project();
    expect((await exec(binCommand(manager, "content-scraper", "--help"), cwd)).stdout).toContain("Usage: content-scraper");
    expect((await exec(binCommand(manager, "content-scraper-mock", "--help"), cwd)).stdout).toContain("usage: content-scraper-mock");
    const [file, ...args] = binCommand(manager, "content-scraper-mock", "--port", "0");
    // A process group of its own: the manager, its shell and the sandbox stop together.
    const sandbox = spawn(file, args, { cwd, env: shell, stdio: ["ignore", "pipe", "pipe"], detached: true });
    try {
      const scraper = await baseUrl(sandbox);
      const env = { ...shell, SCRAPER_API_KEY: "scrape_live_registry" };
      const { stdout } = await exec(binCommand(manager, "content-scraper", "profile", "shortvideo", "creator", "--base-url", scraper), cwd, env);
      expect(JSON.parse(stdout)).toMatchObject({ data: { username: expect.any(String) }, meta: { creditsCharged: 1 } });
    } finally {
      const exited = once(sandbox, "exit");
      process.kill(-(sandbox.pid as number), "SIGTERM");
      await exited;
    }
  });

  it.for(compilers(manager).flatMap((compiler) => Object.keys(resolutions).map((resolution) => [compiler, resolution] as const)))(
    "type-checks a consumer of every declaration with %s, %s resolution (tsc --strict, skipLibCheck off)",
    async ([compiler, resolution]) => {
      const cwd = await project();
      const tsc = join(cwd, "node_modules", compiler, "bin/tsc");
      const { stdout: version } = await exec([process.execPath, tsc, "--version"], cwd);
      expect(version).toMatch(compiler === "typescript7" ? `Version ${TYPESCRIPT_7}` : `Version ${catalog.typescript}`);
      const report = await exec([process.execPath, tsc, "-p", `tsconfig.${resolution}.json`], cwd).then(
        () => "",
        (error: Error) => error.message,
      );
      expect(report).toBe("");
    },
  );
});

describe("the runtime matrix, on the packages npm installed from the registry", () => {
  it.each(runtimes)("%s runs the conformance script alike", async (runtime) => {
    expectConformance(runtime, (await matrix.results)?.[runtime]);
  });

  it("releases every timed-out and aborted request's connection", async () => {
    await matrix.results;
    expect(matrix.hostile?.open).toBe(0);
  });
});

/** The sandbox's scraper base URL, once its bin prints it. */
function baseUrl(sandbox: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    const read = (chunk: Buffer) => {
      output += chunk;
      const found = /scraper\s+(http\S+)/.exec(output);
      if (found) resolve(found[1] as string);
    };
    sandbox.stdout?.on("data", read);
    sandbox.stderr?.on("data", read);
    sandbox.once("exit", () => reject(new Error(`the sandbox exited before it listened:\n${output}`)));
  });
}
