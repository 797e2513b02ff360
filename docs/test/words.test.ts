// Words for integrators, checked over the built site: no page shows the descriptions' extension names, the
// repository's file paths or the language the descriptions are written in ("not shown", "stays open"); every gap reads
// as the one callout, "Not documented in v1.3.0: …". The reference pages are checked on what Redoc renders: the
// descriptions, summaries and titles of the copy embedded in the page.
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

const htmlPages = (readdirSync(distDir, { recursive: true }) as string[]).filter((file) => file.endsWith(".html") && !file.startsWith("reference/"));

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

/** The strings Redoc shows from a description: titles, summaries, descriptions, example summaries, tag names. */
function shown(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) shown(item, found);
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith("x-") && key !== "x-codeSamples") continue;
      if (["title", "summary", "description", "name", "label"].includes(key) && typeof value === "string") found.push(value);
      else shown(value, found);
    }
  }
  return found;
}

describe.each(references)("$page", ({ page }) => {
  const html = readFileSync(`${distDir}/${page}`, "utf8");
  const definition = /const __redoc_definition = (\{[\s\S]*?\});\n/.exec(html)?.[1];

  it("embeds the description Redoc renders", () => {
    expect(definition).toBeDefined();
  });

  it("shows no extension name, file path or authoring language", () => {
    const texts = shown(JSON.parse(definition ?? "{}"));
    expect(texts.flatMap(jargon)).toEqual([]);
  });

  it("titles the API for what it is, without a version it does not have", () => {
    const info = JSON.parse(definition ?? "{}").info;
    expect(info.title).toMatch(/API/);
    expect(`${info.title} ${info.version}`).not.toMatch(/not shown/i);
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
