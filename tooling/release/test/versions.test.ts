// `changeset version` on a throwaway copy of the workspace's manifests and pending changesets: each published package
// moves exactly as its changesets say, and one that no changeset names moves at most a patch (its dependencies' new
// versions). Changesets' peer rule made the client 1.0.0 with no major asked: its optional peer, the validators, moved
// 0.1.0 → 0.2.0, out of `^0.1.0`.
import { execFile } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { pendingBumps } from "../src/api-diff.mjs";
import { publishedPackages, ROOT, tempDir } from "../src/packages.mjs";

const run = promisify(execFile);
const changeset = createRequire(import.meta.url).resolve("@changesets/cli/bin.js");
const packages = publishedPackages();
const copy = tempDir("versions");
const versionIn = (dir: string, rel: string) => (JSON.parse(readFileSync(join(dir, rel, "package.json"), "utf8")) as { version: string }).version;

beforeAll(async () => {
  // What changesets reads: the root manifest, the workspace file, the changesets and every workspace package's manifest.
  for (const file of ["package.json", "pnpm-workspace.yaml"]) copyFileSync(join(ROOT, file), join(copy, file));
  cpSync(join(ROOT, ".changeset"), join(copy, ".changeset"), { recursive: true });
  for (const group of ["packages", "tooling"]) {
    for (const name of readdirSync(join(ROOT, group))) manifest(`${group}/${name}`);
  }
  for (const rel of ["spec", "docs"]) manifest(rel);
  await run(process.execPath, [changeset, "version"], { cwd: copy });
});

afterAll(() => rmSync(copy, { recursive: true, force: true }));

function manifest(rel: string) {
  if (!existsSync(join(ROOT, rel, "package.json"))) return;
  mkdirSync(join(copy, rel), { recursive: true });
  copyFileSync(join(ROOT, rel, "package.json"), join(copy, rel, "package.json"));
}

const order = ["patch", "minor", "major"] as const;
type Bump = (typeof order)[number];

/** `version` moved by `bump`, as semver counts (a major of 0.x is 1.0.0). */
function bumped(version: string, bump: Bump): string {
  const [major = 0, minor = 0, patch = 0] = version.split(".").map(Number);
  if (bump === "major") return `${major + 1}.0.0`;
  if (bump === "minor") return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

it.each(packages.map((p) => [p.name, p] as const))("%s gets the version its changesets ask for", (name, pkg) => {
  const asked = pendingBumps(join(ROOT, ".changeset"), name)
    .map((b) => b.bump)
    .sort((a, b) => order.indexOf(b) - order.indexOf(a))[0];
  const next = versionIn(copy, pkg.rel);
  if (asked) expect(next).toBe(bumped(pkg.version, asked));
  else expect([pkg.version, bumped(pkg.version, "patch")]).toContain(next);
});

