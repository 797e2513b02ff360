// llms.txt (https://llmstxt.org): an index of the site for language models, and llms-full.txt, the guides and the
// references as one Markdown text: every operation with its description and its curl sample, gaps included.
import { errorsPage } from "./errors.mjs";
import { expandMarkers, firstParagraph } from "./pages.mjs";
import { notDocumented, withoutGapSentences } from "./not-shown.mjs";
import { operations } from "./site.mjs";

/** A page's Markdown with its relative links rebased on the site's root (where llms.txt is), pointing at the HTML pages. */
function rebased(markdown, page) {
  return markdown.replace(/\]\((?![a-z][a-z0-9+.-]*:|#)([^)\s]+)\)/gi, (_match, href) => {
    const url = new URL(href, `file:///site/${page}`);
    return `](${url.pathname.slice("/site/".length).replace(/\.md$/, ".html")}${url.hash})`;
  });
}

/** The index: what the site has, with one line each. */
export function llmsIndex({ references, rendered, published }) {
  const page = (path) => rendered.find((entry) => entry.page === path);
  const line = (path, title, text) => `- [${title}](${path})${text ? `: ${text}` : ""}`;
  const scraper = references.find(({ api }) => api === "scraper")?.description;
  return [
    "# Content Scraper docs",
    "",
    `> ${scraper?.info.summary ?? ""}`,
    "",
    rebased(firstParagraph(page("index.html").markdown), "index.html"),
    "",
    "## Guides",
    "",
    ...rendered
      .filter(({ page: path }) => path.startsWith("guides/"))
      .map(({ page: path, title, markdown }) => line(path, title, rebased(firstParagraph(markdown), path))),
    "",
    "## API reference",
    "",
    ...references.map(({ page: path, title, description }) => line(path, title, description.info.summary)),
    line(errorsPage, "Error codes", "every error code, its status, what it costs and what to do"),
    "",
    "## Packages",
    "",
    ...published.flatMap((pkg) => [line(pkg.page, pkg.name, pkg.manifest.description), line(pkg.apiPage, `${pkg.name} API`, "")]),
    "",
    "## Optional",
    "",
    line("changelog.html", "Changelog", "released and pending changes per package"),
    line("llms-full.txt", "Full text", "the guides and the references in one Markdown file"),
    "",
  ].join("\n");
}

/** A description as Markdown: its introduction, then each operation with its samples' curl and its gaps as notes. */
function referenceMarkdown({ title, description }, samples) {
  const plain = (node) => {
    const words = withoutGapSentences(node?.description ?? "");
    const gap = node?.["x-not-shown"] ? notDocumented(description, node["x-not-shown"]).replace(/<[^>]+>/g, "") : "";
    return [words, gap].filter(Boolean).join("\n\n");
  };
  const parts = [`# ${title}`, "", plain(description.info), ""];
  const byId = new Map(samples.map((entry) => [entry.request.operationId, entry]));
  for (const operation of operations(description)) {
    parts.push(`## ${operation.summary ?? operation.operationId}`, "", `\`${operation.method.toUpperCase()} ${operation.path}\` (\`${operation.operationId}\`)`, "", plain(operation), "");
    const curl = byId.get(operation.operationId)?.samples.curl;
    if (curl) parts.push("```sh", curl.trimEnd(), "```", "");
  }
  return parts.join("\n");
}

/** Everything, as one Markdown text. */
export async function llmsFull({ references, rendered, allSamples }) {
  const pages = rendered.filter(({ page }) => page === "index.html" || page.startsWith("guides/") || page === errorsPage);
  const parts = await Promise.all(pages.map(async ({ page, markdown }) => rebased(await expandMarkers(markdown, references), page)));
  return [...parts, ...references.map((surface) => referenceMarkdown(surface, allSamples.get(surface.api)))].join("\n\n---\n\n");
}
