// A throwaway copy of the workspace as it stands (sources, builds, changesets, lockfile), installed offline from pnpm's
// store and committed in a git repository of its own: what a release runs on, without touching the real one.
import { execFile } from "node:child_process";
import { cpSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT, tempDir } from "./packages.mjs";

const run = promisify(execFile);
/** What a checkout does not hold, or the copy makes anew. */
const LEFT_OUT = new Set(["node_modules", ".git", ".turbo", "test-artifacts"]);
const GIT = ["-c", "user.name=release-test", "-c", "user.email=release-test@localhost", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"];

export async function workspaceCopy() {
  const dir = tempDir("workspace");
  for (const entry of readdirSync(ROOT).filter((name) => !LEFT_OUT.has(name))) {
    cpSync(join(ROOT, entry), join(dir, entry), { recursive: true, filter: (source) => !LEFT_OUT.has(source.split("/").at(-1) ?? "") });
  }
  await run("pnpm", ["install", "--offline", "--frozen-lockfile", "--ignore-scripts", "--reporter=silent"], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  await run("git", ["init", "--quiet", "--initial-branch=main"], { cwd: dir });
  await commit(dir, "the workspace as it stands");
  return dir;
}

/** Commits everything in the copy (changesets reads the history; `changeset publish` tags it). @param {string} dir @param {string} message */
export async function commit(dir, message) {
  await run("git", ["add", "--all"], { cwd: dir });
  await run("git", [...GIT, "commit", "--quiet", "--allow-empty", "--message", message], { cwd: dir });
}
