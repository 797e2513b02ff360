// The Markdown version of a page (`page.md` beside `page.html`), for readers and agents that copy or fetch a page: its
// source with every marker expanded to what it shows, the gap callouts as plain quotes, ids and the site's own markup
// removed, and relative links pointing at the other pages' Markdown. Nothing internal: the sources hold no extension
// names, and the words test reads these files as it reads the pages.
import { expandMarkers } from "./pages.mjs";

/** A callout's HTML (`<div class="not-documented" …><strong>Not documented in v1.3.0:</strong> …</div>`) as a quote. */
const callouts = (markdown) =>
  markdown.replace(/<div class="not-documented"[^>]*><strong>([^<]*)<\/strong>\s*([\s\S]*?)<\/div>/g, (_match, label, text) => `> **${label}** ${text.replace(/<code>([^<]*)<\/code>/g, "`$1`")}`);

/** A page's Markdown as its `.md` file: `page` is its path under dist/ (for nothing but errors), `surfaces` the descriptions. */
export async function markdownVersion(markdown, page, surfaces) {
  const expanded = await expandMarkers(markdown, surfaces);
  const text = callouts(expanded)
    // Heading ids (`## Title {#id}`) are the HTML page's business.
    .replace(/^(#{1,6} .*?)\s*\{#[^}]+\}\s*$/gm, "$1")
    // Anchors kept for old links, and inline spans, keep their text only.
    .replace(/<(a|span) id="[^"]*"(?: href="([^"]*)")?>([\s\S]*?)<\/\1>/g, (_match, _tag, href, inner) => (href ? `[${inner.replace(/<\/?code>/g, "`")}](${href})` : inner.replace(/<\/?code>/g, "`")))
    .replace(/^```example$/gm, "```json")
    // The try-it console's buttons work in the page only.
    .replace(/^<p class="try-it-open">.*<\/p>$/gm, "")
    // Relative links to pages: their Markdown.
    .replace(/\]\((?![a-z][a-z0-9+.-]*:|#)([^)\s#]+)\.html(#[^)\s]*)?\)/gi, "]($1.md$2)")
    .replace(/\n{3,}/g, "\n\n");
  if (/<div class="not-documented"/.test(text)) throw new Error(`${page}: a gap callout was left as HTML in its Markdown`);
  return `${text.trim()}\n`;
}
