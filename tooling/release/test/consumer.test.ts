// A consumer's view: the packed tarballs installed with npm into one fresh temporary project (pnpm
// pack rewrote the workspace: ranges; third-party dependencies come from the registry), an ESM
// script that uses every entry point, and a TypeScript file type-checked against the declarations.
import { execFile } from "node:child_process";
import { copyFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { tempDir } from "../src/packages.mjs";

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const project = tempDir("consumer");
const tarballs = inject("packed").packed.map((p) => p.tarball);

beforeAll(async () => {
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  await run("npm", ["install", "--engine-strict", "--no-audit", "--no-fund", "--loglevel=error", ...tarballs], {
    cwd: project,
    maxBuffer: 64 * 1024 * 1024,
  });
  copyFileSync(join(import.meta.dirname, "consumer/smoke.mjs"), join(project, "smoke.mjs"));
  copyFileSync(join(import.meta.dirname, "consumer/types.ts"), join(project, "types.ts"));
});

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

it("installs every published package from its tarball", () => {
  expect(tarballs.length).toBeGreaterThanOrEqual(7);
});

it("runs an ESM script against every entry point, offline", async () => {
  const { stdout } = await run(process.execPath, ["smoke.mjs"], { cwd: project });
  console.log(stdout);
  expect(stdout).toContain("mock: startMock");
});

it("type-checks a TypeScript consumer (module NodeNext, strict)", async () => {
  const tsc = join(dirname(require.resolve("typescript/package.json")), "bin/tsc");
  const typeRoots = join(dirname(require.resolve("@types/node/package.json")), "..");
  const args = ["--noEmit", "--strict", "--module", "NodeNext", "--moduleResolution", "NodeNext", "--target", "ES2023", "--lib", "ES2023,DOM"];
  const { stdout } = await run(process.execPath, [tsc, ...args, "--typeRoots", typeRoots, "--types", "node", "types.ts"], { cwd: project }).catch(
    (error: { stdout: string }) => ({ stdout: error.stdout }),
  );
  expect(stdout).toBe("");
});
