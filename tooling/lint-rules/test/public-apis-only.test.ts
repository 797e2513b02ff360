// The public-apis-only Biome plugin (biome/public-apis-only.grit), run as `pnpm lint` runs it: the root biome.json as
// it is, in a throwaway copy of the repo's layout, by each package's `biome lint .`.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

interface Diagnostic {
  category: string;
  message: string;
  location: { path: string; start: { line: number } };
}

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const fixtures = fileURLToPath(new URL("./fixtures/public-apis-only/", import.meta.url));
const biome = createRequire(import.meta.url).resolve("@biomejs/biome/bin/biome");
const forbidden = readFileSync(path.join(fixtures, "forbidden.ts"), "utf8");
const clean = readFileSync(path.join(fixtures, "clean.ts"), "utf8");

/** What a diagnostic of the plugin is about, from its message. */
function kind(message: string): string {
  if (message.includes("Symbol.for()")) return "symbol";
  if (message.includes("underscored member")) return "underscore";
  if (message.includes("dispatch-handler callbacks")) return "handler";
  return `unknown: ${message}`;
}

/** The fixture's `expect: <kind>` marks, as `<line> <kind>`. */
const expected = forbidden
  .split("\n")
  .flatMap((line, index) => [...line.matchAll(/\/\/ expect: (\w+)/g)].map(([, what]) => `${index + 1} ${what}`));

let root: string;

/** Writes `text` at `file` (relative to the throwaway repo). */
function put(file: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}

/** `biome lint .` in `dir` of the throwaway repo: its exit code and the plugin's diagnostics, as `<file> <line> <kind>`. */
function lint(dir: string): { status: number | null; reported: string[] } {
  const run = spawnSync(process.execPath, [biome, "lint", "--reporter=json", "--max-diagnostics=none", "."], {
    cwd: path.join(root, dir),
    encoding: "utf8",
  });
  if (run.status !== 0 && run.status !== 1) throw new Error(`biome lint exited with ${run.status}:\n${run.stderr}`);
  const { diagnostics }: { diagnostics: Diagnostic[] } = JSON.parse(run.stdout);
  const reported = diagnostics
    .filter((diagnostic) => diagnostic.category === "plugin")
    .map(({ message, location }) => `${path.join(dir, location.path)} ${location.start.line} ${kind(message)}`);
  return { status: run.status, reported };
}

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), "public-apis-only-"));
  // The root config as it is, and every plugin it names at the same place.
  const config = JSON.parse(readFileSync(path.join(repoRoot, "biome.json"), "utf8"));
  delete config.$schema;
  put("biome.json", JSON.stringify(config));
  for (const plugin of config.plugins ?? []) {
    const file = typeof plugin === "string" ? plugin : plugin.path;
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    cpSync(path.join(repoRoot, file), path.join(root, file));
  }
  put("packages/dirty/src/forbidden.ts", forbidden);
  put("packages/dirty/src/clean.ts", clean);
  put("packages/tidy/src/clean.ts", clean);
  // Where the rule does not apply: tests (beside the source or under test/), generated code, and code outside
  // packages/*/src.
  put("packages/tidy/src/forbidden.test.ts", forbidden);
  put("packages/tidy/src/generated/forbidden.ts", forbidden);
  put("packages/tidy/test/forbidden.ts", forbidden);
  put("packages/tidy/bench/forbidden.ts", forbidden);
  put("tooling/tidy/src/forbidden.ts", forbidden);
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("public-apis-only (Biome plugin)", () => {
  it("is enabled in the root biome.json for packages/*/src", () => {
    const { plugins } = JSON.parse(readFileSync(path.join(repoRoot, "biome.json"), "utf8"));
    expect(plugins).toContainEqual(
      expect.objectContaining({ path: "./tooling/lint-rules/biome/public-apis-only.grit", includes: expect.arrayContaining(["packages/*/src/**/*.ts"]) }),
    );
  });

  it("the forbidden fixture marks every kind of form", () => {
    const kinds = new Set(expected.map((mark) => mark.split(" ")[1]));
    expect([...kinds].sort()).toEqual(["handler", "symbol", "underscore"]);
  });

  it("reports each forbidden form once, as what it is, and fails the package's lint", () => {
    const { status, reported } = lint("packages/dirty");
    expect(reported.filter((line) => !line.startsWith("packages/dirty/src/forbidden.ts ")), "clean.ts").toEqual([]);
    expect(reported.map((line) => line.replace("packages/dirty/src/forbidden.ts ", "")).sort()).toEqual([...expected].sort());
    expect(status).toBe(1);
  });

  it("accepts the clean fixture, and the package's lint passes", () => {
    expect(lint("packages/tidy")).toEqual({ status: 0, reported: [] });
  });

  it("applies only to packages/*/src, without tests and generated code", () => {
    const { reported } = lint(".");
    expect(new Set(reported.map((line) => line.split(" ")[0]))).toEqual(new Set(["packages/dirty/src/forbidden.ts"]));
  });
});
