// The changelog page, by version and date: the API versions of the descriptions (as last released, in spec/released,
// and as they are now), then per published package its next version with the pending changesets in .changeset/ (each
// dated by the commit that added it, breaking changes marked), then its released versions (its CHANGELOG.md, written by
// `changeset version`). A package without a changelog has not been released.
import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { repoDir } from "./site.mjs";

const run = promisify(execFile);

/**
 * A changeset's words for integrators, without its `- correction` lines, which tell the release's breaking-change gate
 * (by surface, JSON pointer and kind) which changes only describe what the service already did.
 */
const withoutCorrections = (text) => text.replace(/^\s*- correction\b.*\n?/gm, "");

/** The day a file entered the repository (`2026-11-23`), from git; undefined outside a checkout. */
async function addedOn(path) {
  try {
    const { stdout } = await run("git", ["log", "--diff-filter=A", "--format=%ad", "--date=short", "--", path], { cwd: repoDir });
    return stdout.trim().split("\n").at(-1) || undefined;
  } catch {
    return undefined;
  }
}

/** The pending changesets, newest first: `[{ bumps: { "@content-scraper/client": "minor" }, summary, date }]`. */
export async function pendingChangesets() {
  const dir = `${repoDir}.changeset`;
  const files = (await readdir(dir)).filter((file) => file.endsWith(".md") && file !== "README.md").sort();
  const list = await Promise.all(
    files.map(async (file) => {
      const [, front = "", summary = ""] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(await readFile(`${dir}/${file}`, "utf8")) ?? [];
      const bumps = Object.fromEntries([...front.matchAll(/^\s*"?([^":]+)"?\s*:\s*(major|minor|patch)\s*$/gm)].map(([, name, bump]) => [name.trim(), bump]));
      return { bumps, summary: withoutCorrections(summary).trim(), date: await addedOn(`.changeset/${file}`) };
    }),
  );
  return list.sort((a, b) => (b.date ?? "").localeCompare(a.date ?? ""));
}

const bumpOrder = ["patch", "minor", "major"];

/** The version `changeset version` will give a package: its version with the largest pending bump applied. */
export function nextVersion(version, bumps) {
  const largest = bumps.reduce((top, bump) => (bumpOrder.indexOf(bump) > bumpOrder.indexOf(top) ? bump : top), "patch");
  const [major, minor, patch] = version.split(/[.-]/).map(Number);
  if (largest === "major") return `${major + 1}.0.0`;
  if (largest === "minor") return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

/** The API version of each description, as released and as it is now, with the day the release was committed. */
async function apiVersions(surfaces) {
  const rows = await Promise.all(
    surfaces.map(async ({ api, title, description }) => {
      const released = JSON.parse(await readFile(`${repoDir}spec/released/${api}.json`, "utf8").catch(() => "null"));
      const version = (value) => (/^\d/.test(String(value ?? "")) ? `\`${value}\`` : "not documented");
      const date = released ? await addedOn(`spec/released/${api}.json`) : undefined;
      return `| ${title} | ${version(description.info.version)} | ${released ? version(released.info.version) : "not released"} | ${date ?? ""} |`;
    }),
  );
  return ["## API versions", "", "| API | Version now | Last released | Released on |", "|---|---|---|---|", ...rows, ""];
}

/**
 * The page's Markdown, for the packages `[{ name, dir, version }]` (`dir` under the repository, `packages/client` or
 * `spec`) and the descriptions (`surfaces`, for the API versions).
 */
export async function changelogMarkdown(list, surfaces = []) {
  const pending = await pendingChangesets();
  const parts = [
    "# Changelog",
    "",
    "What changed in each package, by version and date, newest first. Versions follow semantic versioning, and",
    "`@content-scraper/spec` carries the API description's version. A **breaking** change needs a new major version.",
    "Changes not yet released are listed under the version they will make.",
    "",
    ...(surfaces.length ? await apiVersions(surfaces) : []),
  ];
  for (const { name, dir, version } of list) {
    parts.push(`## \`${name}\``, "");
    const changes = pending.filter(({ bumps }) => bumps[name]);
    if (changes.length) {
      const next = version ? nextVersion(version, changes.map(({ bumps }) => bumps[name])) : "";
      parts.push(`### ${next ? `${next} ` : ""}(unreleased)`, "");
      for (const { bumps, summary, date } of changes) {
        const kind = bumps[name] === "major" ? "**breaking** (major)" : `**${bumps[name]}**`;
        parts.push(`- ${date ? `${date}, ` : ""}${kind}: ${summary.replace(/\n+/g, " ")}`);
      }
      parts.push("");
    }
    const changelog = await readFile(`${repoDir}${dir}/CHANGELOG.md`, "utf8").catch(() => undefined);
    if (changelog === undefined) {
      parts.push(`Not released yet${version ? ` (its version now is \`${version}\`)` : ""}.`, "");
      continue;
    }
    // `changeset version` writes `# name`, then `## version` and `### Major Changes`: one level down on this page, with
    // the major changes marked breaking.
    const released = withoutCorrections(changelog)
      .replace(/^# .*\n/, "")
      .replace(/^(#{2,5}) /gm, "#$1 ")
      .replace(/^#### Major Changes$/gm, "#### Major changes (breaking)")
      .trim();
    parts.push(released, "");
  }
  return parts.join("\n");
}
