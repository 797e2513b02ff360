// The changelog page is built from the changesets: every published package has its section, every pending changeset
// is listed under each package it bumps, and a package's CHANGELOG.md (as `changeset version` writes it) shows there.
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changelogMarkdown, nextVersion, pendingChangesets } from "../scripts/changelog.mjs";
import { distDir, packages, repoDir } from "../scripts/site.mjs";

const published = [{ name: "@content-scraper/spec" }, ...(await packages())];
const pending = await pendingChangesets();
const page = readFileSync(`${distDir}/changelog.html`, "utf8");
/** The text of one package's section of the page: from its heading to the next heading of that level. */
const section = (name: string) => {
  const html = page.split(/<h2 /).find((part) => part.startsWith(`id=`) && part.includes(`<code>${name}</code><a class="anchor"`)) ?? "";
  return html
    .replace(/<[^>]+>/g, "")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
};

describe("the built changelog page", () => {
  it("has a section for the spec and every published package", () => {
    expect(published.filter(({ name }) => section(name) === "").map(({ name }) => name)).toEqual([]);
  });

  it("lists every pending changeset under each package it bumps, with the kind of bump", () => {
    // None right after `changeset version`, when `pnpm release` runs this suite before it publishes.
    const missing = pending.flatMap(({ bumps, summary }) => {
      // The first words of the summary, as text (inline code and emphasis are rendered as HTML).
      const opening = summary.replace(/[`*]/g, "").split(/\s+/).slice(0, 5).join(" ");
      return Object.entries(bumps)
        .filter(([name, bump]) => !section(name).includes(`${bump === "major" ? "breaking (major)" : bump}: ${opening}`))
        .map(([name]) => `${name}: ${opening}`);
    });
    expect(missing).toEqual([]);
  });
});

describe("versions", () => {
  it("the pending changes sit under the version they will make, each dated", () => {
    const client = section("@content-scraper/client");
    expect(client).toMatch(/0\.\d+\.\d+ \(unreleased\)/);
    expect(pending.every(({ date }) => /^\d{4}-\d{2}-\d{2}$/.test(date ?? "")), "every changeset dated by its commit").toBe(true);
    expect(client).toMatch(/\d{4}-\d{2}-\d{2}, (minor|patch|breaking \(major\)):/);
  });

  it("computes the next version from the largest bump, and marks a major one breaking", async () => {
    expect(nextVersion("0.1.0", ["patch", "minor"])).toBe("0.2.0");
    expect(nextVersion("1.3.0", ["patch"])).toBe("1.3.1");
    expect(nextVersion("1.3.0", ["minor", "major"])).toBe("2.0.0");
  });

  it("shows each API's version now and as last released", () => {
    expect(page).toContain("API versions");
    expect(page).toMatch(/Content Scraper API<\/td>\s*<td><code>\d+\.\d+\.\d+<\/code><\/td>\s*<td><code>\d+\.\d+\.\d+<\/code><\/td>\s*<td>\d{4}-\d{2}-\d{2}/);
  });
});

describe("a released package", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(`${tmpdir()}/docs-changelog-`);
    await writeFile(`${dir}/CHANGELOG.md`, "# @example/released\n\n## 2.0.0\n\n### Major Changes\n\n- def5678: Walks need a budget.\n\n## 1.1.0\n\n### Minor Changes\n\n- abc1234: Walks stop at maxCredits.\n");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("shows its CHANGELOG.md one heading level down, and an unreleased package says so", async () => {
    const markdown = await changelogMarkdown([
      { name: "@example/released", dir: relative(repoDir, dir) },
      { name: "@example/unreleased", dir: relative(repoDir, `${dir}/nowhere`) },
    ]);
    expect(markdown).toContain("## `@example/released`\n\n### 2.0.0\n\n#### Major changes (breaking)\n\n- def5678: Walks need a budget.\n\n### 1.1.0\n\n#### Minor Changes\n\n- abc1234: Walks stop at maxCredits.");
    expect(markdown).toContain("## `@example/unreleased`\n\nNot released yet.");
  });
});
