// Words for integrators, checked over the built site: no page, no page's Markdown (what "Copy page as Markdown" copies)
// and neither llms file shows the descriptions' extension names, the repository's file paths or the language the
// descriptions are written in ("not shown", "stays open"); every gap reads as the one callout, "Not documented in
// v1.3.0: …".
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { distDir, surfaces } from "../scripts/site.mjs";

const references = await surfaces();

/** Every extension name the descriptions use (`x-credits`, `x-not-shown`, …). */
const extensions = new Set<string>();
const collect = (node: unknown): void => {
  if (Array.isArray(node)) {
    node.forEach(collect);
    return;
  }
  if (node === null || typeof node !== "object") return;
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith("x-")) extensions.add(key);
    collect(value);
  }
};
for (const { description } of references) collect(description);

const authoring = [
  /not shown/i,
  /\bstays? open\b/i,
  /what the reference shows/i,
  /\bthe reference (?:shows|does not show|gives|names|states|lists|says)\b/i,
  /\binvent(?:ed|ing|s)?\b/i,
  /\bdescribed here\b/i,
  /\bhouse rules?\b/i,
  /\boperation table\b/i,
  /\bcodegen\b/i,
];
const repositoryPath = /\b(?:docs|spec|src|tooling|scripts|test)\/[\w.-]+/;

/** What a reader is told that they should not be: the phrases found in `text`. */
function jargon(text: string): string[] {
  const found = [...extensions].filter((name) => new RegExp(`(^|[^\\w-])${name}(?![\\w-])`).test(text));
  for (const pattern of [...authoring, repositoryPath]) {
    const match = pattern.exec(text);
    if (match) found.push(text.slice(Math.max(0, match.index - 40), match.index + match[0].length + 40).replace(/\s+/g, " "));
  }
  return found;
}

const files = readdirSync(distDir, { recursive: true }) as string[];
const htmlPages = files.filter((file) => file.endsWith(".html"));
const markdownPages = files.filter((file) => file.endsWith(".md"));

/** A page's prose: its main content without tags, scripts, styles and code blocks (code is code). */
function prose(html: string): string {
  const main = /<main[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? html;
  return main
    .replace(/<(script|style|pre)[\s\S]*?<\/\1>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&#39;/g, "'");
}

describe.each(htmlPages)("%s", (page) => {
  const html = readFileSync(`${distDir}/${page}`, "utf8");

  it("shows no extension name, file path or authoring language", () => {
    expect(jargon(prose(html))).toEqual([]);
  });

  // The guides and the overview state gaps only in the callout. The sandbox guide is its maintainers' (it says where the
  // sandbox differs from the service); the other pages are written from the packages' comments, READMEs and changesets.
  it.skipIf(!/^(index|guides\/(?!sandbox)[\w-]+|errors)\.html$/.test(page))("states gaps only in the callout, outside tables", () => {
    const outsideCallouts = prose(html.replace(/<div class="not-documented"[\s\S]*?<\/div>/g, " ").replace(/<table[\s\S]*?<\/table>/g, " "));
    const mentions = [...outsideCallouts.matchAll(/[^.]{0,60}\bnot documented\b[^.]{0,40}/gi)].map(([text]) => text.replace(/\s+/g, " ").trim());
    expect(mentions).toEqual([]);
  });
});

describe.each(references)("$page", ({ page }) => {
  const html = readFileSync(`${distDir}/${page}`, "utf8");

  it("titles the API for what it is, without a version it does not have", () => {
    const title = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? "";
    expect(title).toMatch(/API/);
    expect(prose(html)).not.toMatch(/Version\s+not shown|not shown\s+of the description/i);
  });
});

describe.each(markdownPages)("%s", (file) => {
  const text = readFileSync(`${distDir}/${file}`, "utf8");

  it("shows no extension name, file path, authoring language or markup of the site", () => {
    expect(jargon(text.replace(/```[\s\S]*?```/g, " "))).toEqual([]);
    expect(text.match(/<(?:div|button|span|script)\b[^>]*>/g) ?? []).toEqual([]);
  });
});

describe.each(["llms.txt", "llms-full.txt"])("%s", (file) => {
  const text = readFileSync(`${distDir}/${file}`, "utf8");

  it("shows no extension name, file path or authoring language", () => {
    expect(jargon(text.replace(/```[\s\S]*?```/g, " "))).toEqual([]);
  });

  it("links to pages that exist", () => {
    const targets = [...text.matchAll(/\]\(([^)#\s]+)[^)]*\)/g)].map(([, href]) => href as string).filter((href) => !/^[a-z]+:/.test(href));
    if (file === "llms.txt") expect(targets.length).toBeGreaterThan(10);
    expect(targets.filter((href) => !existsSync(`${distDir}/${href}`))).toEqual([]);
  });
});
