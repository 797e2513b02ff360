// The checks catch what they are for: a deliberately broken package fails publint and attw.
import { execFile } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { runAttw, runPublint } from "../src/checks.mjs";
import { tempDir } from "../src/packages.mjs";

const run = promisify(execFile);
const dir = tempDir("broken");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("flags types after default, a missing file and mismatched declarations", async () => {
  const pkg = join(dir, "pkg");
  mkdirSync(join(pkg, "dist"), { recursive: true });
  writeFileSync(
    join(pkg, "package.json"),
    JSON.stringify({
      name: "broken-fixture",
      version: "1.0.0",
      type: "module",
      files: ["dist"],
      exports: { ".": { default: "./dist/index.js", types: "./dist/index.d.ts" }, "./missing": "./dist/missing.js" },
    }),
  );
  writeFileSync(join(pkg, "dist/index.js"), "export const a = 1;\n");
  writeFileSync(join(pkg, "dist/index.d.ts"), "export declare const b: number;\n");
  const { stdout } = await run("pnpm", ["pack", "--json", "--pack-destination", dir], { cwd: pkg });
  const tarball = JSON.parse(stdout).filename as string;
  const publint = await runPublint(tarball);
  expect(publint.join("\n")).toMatch(/types/);
  expect(publint.join("\n")).toMatch(/missing/);
  const attw = await runAttw(tarball);
  expect(attw?.join("\n")).toMatch(/NoResolution/); // ./missing
});
