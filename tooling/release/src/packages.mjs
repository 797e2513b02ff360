// The published workspace packages, found rather than listed: every packages/* whose package.json is
// not private, and spec. A new package is covered by every release check the moment it exists.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * The manifest as packed, with pnpm's rewrites applied (`workspace:^` → `^<version>`, `catalog:` → the pinned range).
 * @param {string} tarball
 * @returns {Promise<Record<string, any>>}
 */
export async function packedManifest(tarball) {
  const { stdout } = await run("tar", ["-xzOf", tarball, "package/package.json"], { maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout);
}

/**
 * The tarballs `name` needs installed beside it: its own and those of the published packages it depends on, directly
 * or through one another (dependencies only: an optional peer is the user's choice).
 * @template {{ name: string, tarball: string }} P
 * @param {string} name
 * @param {P[]} packed
 * @returns {Promise<P[]>}
 */
export async function withDependencies(name, packed) {
  const needed = new Map();
  const visit = async (/** @type {string} */ wanted) => {
    const pkg = packed.find((p) => p.name === wanted);
    if (!pkg || needed.has(wanted)) return;
    needed.set(wanted, pkg);
    for (const dependency of Object.keys((await packedManifest(pkg.tarball)).dependencies ?? {})) await visit(dependency);
  };
  await visit(name);
  return [...needed.values()];
}

export const ROOT = resolve(import.meta.dirname, "../../..");

/** @returns {{ name: string, version: string, dir: string, rel: string, manifest: Record<string, any> }[]} */
export function publishedPackages() {
  const dirs = readdirSync(join(ROOT, "packages"), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(ROOT, "packages", d.name, "package.json")))
    .map((d) => `packages/${d.name}`);
  dirs.push("spec");
  return dirs
    .map((rel) => {
      const dir = join(ROOT, rel);
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      return { name: manifest.name, version: manifest.version, dir, rel, manifest };
    })
    .filter((p) => p.manifest.private !== true)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** @param {string} prefix */
export function tempDir(prefix) {
  return mkdtempSync(join(tmpdir(), `content-scraper-${prefix}-`));
}

/**
 * Packs every published package with `pnpm pack` (which rewrites workspace: and catalog: ranges) into
 * one temporary directory; returns the tarball path of each.
 */
export async function packAll(dest = tempDir("pack")) {
  const packages = publishedPackages();
  // Two at a time: the machine has two cores, and each pnpm process is mostly start-up.
  const out = [];
  for (let i = 0; i < packages.length; i += 2) {
    const batch = packages.slice(i, i + 2);
    out.push(
      ...(await Promise.all(
        batch.map(async (pkg) => {
          const { stdout } = await run("pnpm", ["pack", "--json", "--pack-destination", dest], {
            cwd: pkg.dir,
            maxBuffer: 16 * 1024 * 1024,
          });
          const info = JSON.parse(stdout);
          const tarball = info.filename.startsWith("/") ? info.filename : join(dest, info.filename);
          return { ...pkg, tarball, files: info.files.map((/** @type {{ path: string }} */ f) => f.path) };
        }),
      )),
    );
  }
  return { dest, packed: out };
}
