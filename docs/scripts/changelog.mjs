// The changelog page: per published package, its CHANGELOG.md (written by `changeset version` on release), and the
// changes pending in .changeset/ that the next release will carry. A package without a changelog is unreleased.
import { readdir, readFile } from "node:fs/promises";
import { repoDir } from "./site.mjs";

/**
^ * A changeset's words for integrators, without its `- correction` lines, which tell the release's breaking-change gate
 * (by surface, JSON pointer and kind) which changes only describe what the service already did.
 */
const withoutCorrections = (text) => text.replace(/^\s*- correction\b.*\n?/gm, "");

/** The pending changesets: `[{ bumps: { "@content-scraper/client": "minor" }, summary }]`. */
export async function pendingChangesets() {
  const dir = `${repoDir}.changeset`;
  const files = (await readdir(dir)).filter((file) => file.endsWith(".md") && file !== "README.md").sort();
  return Promise.all(
    files.map(async (file) => {
      const [, front = "", summary = ""] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(await readFile(`${dir}/${file}`, "utf8")) ?? [];
      const bumps = Object.fromEntries([...front.matchAll(/^\s*"?([^":]+)"?\s*:\s*(major|minor|patch)\s*$/gm)].map(([, name, bump]) => [name.trim(), bump]));
      return { bumps, summary: withoutCorrections(summary).trim() };
    }),
  );
}

/** The page's Markdown, for the packages `[{ name, dir }]` (`dir` under the repository, `packages/client` or `spec`). */
export async function changelogMarkdown(list) {
  const pending = await pendingChangesets();
  const parts = [
    "# Changelog",
    "",
    "What changed in each package, newest first. Versions follow semantic versioning: `@content-scraper/spec` carries the",
    "API description's version. Changes not yet released are listed first, under the kind of version change they will make.",
    "",
  ];
  for (const { name, dir } of list) {
    parts.push(`## \`${name}\``, "");
    const changes = pending.filter(({ bumps }) => bumps[name]);
    if (changes.length) {
      parts.push("### Unreleased", "");
      for (const { bumps, summary } of changes) parts.push(`- **${bumps[name]}**: ${summary.replace(/\n+/g, " ")}`);
      parts.push("");
    }
    const changelog = await readFile(`${repoDir}${dir}/CHANGELOG.md`, "utf8").catch(() => undefined);
    if (changelog === undefined) {
      parts.push("Not released yet.", "");
      continue;
    }
    // `changeset version` writes `# name`, then `## version` and `### Minor Changes`: one level down on this page.
    parts.push(withoutCorrections(changelog).replace(/^# .*\n/, "").replace(/^(#{2,5}) /gm, "#$1 ").trim(), "");
  }
  return parts.join("\n");
}
