// The npx commands the READMEs and docs pages give must resolve where a reader types them: `npx content-scraper-mock`
// is a 404 unless the package is installed (no unscoped package has that name), `npx @content-scraper/mock` works
// anywhere. The registry test runs the scoped commands from a folder where nothing is installed.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { publishedPackages, ROOT } from "../src/packages.mjs";

const published = publishedPackages().map((p) => p.name);

/** Every Markdown page a reader gets: the READMEs of the repository and its packages, and the docs site's pages. */
function pages(): string[] {
  const readmes = ["README.md", "spec/README.md"];
  for (const group of ["packages", "tooling"]) {
    for (const name of readdirSync(join(ROOT, group))) readmes.push(`${group}/${name}/README.md`);
  }
  const docs = readdirSync(join(ROOT, "docs/pages"), { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".md"));
  return [...readmes, ...docs.map((file) => `docs/pages/${file}`)].filter((page) => existsSync(join(ROOT, page)));
}

it("runs our packages through npx by their published names", () => {
  const wrong: string[] = [];
  for (const page of pages()) {
    for (const [, name] of readFileSync(join(ROOT, page), "utf8").matchAll(/\bnpx\s+(?:-\S+\s+)*([^\s`'"]+)/g)) {
      const ours = /^@?content-scraper/.test(name as string);
      if (ours && !published.includes((name as string).replace(/(?<=.)@[^/]*$/, ""))) wrong.push(`${page}: npx ${name}`);
    }
  }
  expect(pages()).toContain("docs/pages/guides/quick-start.md");
  expect(wrong).toEqual([]);
});
