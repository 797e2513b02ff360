// The offline search index, built with MiniSearch at build time: every section of every page (guides, reference
// operations and schemas, error codes, package pages and every exported symbol of their API pages, the changelog). The
// site script loads it as a plain script (`window.__searchIndex`), which works from disk as well as from a server.
// Ranking: a term in a title or a page's keywords counts most, and the kind of page weighs in, so the guide or the
// reference for a term comes before a package README that mentions it. test/search.test.ts holds the ranking to a
// fixed set of queries.
import MiniSearch from "minisearch";

/** Words, with identifiers kept whole as well as split (`SCRAPER_RATE_LIMITED`, `walkPosts` → `walk`, `posts`). */
export function tokenize(text) {
  return text
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(Boolean)
    .flatMap((word) => {
      const parts = word.split(/_+|(?<=[\p{Ll}\p{N}])(?=\p{Lu})/u).filter(Boolean);
      return parts.length > 1 ? [word, ...parts] : [word];
    });
}

/** How much a kind of page weighs against the others when both match. */
export const kindWeights = { guide: 2, reference: 1.6, error: 1.6, api: 1.3, home: 1, errors: 1, package: 0.6, changelog: 0.4 };

/** The options the index is built with; the site script loads it with the same ones. */
export const searchOptions = {
  idField: "url",
  fields: ["title", "keywords", "text"],
  storeFields: ["url", "title", "page", "boost"],
  tokenize,
  searchOptions: {
    boost: { title: 3, keywords: 4 },
    prefix: true,
    fuzzy: 0.2,
    combineWith: /** @type {"AND"} */ ("AND"),
    // A query's words as typed: an identifier is looked up whole.
    tokenize: (/** @type {string} */ text) => text.split(/[^\p{L}\p{N}_]+/u).filter(Boolean),
    boostDocument: (/** @type {string} */ _id, /** @type {string} */ _term, /** @type {{ boost?: number } | undefined} */ stored) => stored?.boost ?? 1,
  },
};

const plain = (html) =>
  html
    .replace(/<pre[\s\S]*?<\/pre>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#39;/g, "'")
    .replace(/&[a-z]+;|&#\d+;/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/** The kind of a page, from where it lives. */
export function kindOf(page) {
  if (page.startsWith("guides/")) return "guide";
  if (page.startsWith("reference/")) return "reference";
  if (page.startsWith("errors/")) return "error";
  if (page === "errors.html") return "errors";
  if (/^packages\/[\w-]+\/api\.html$/.test(page)) return "api";
  if (page.startsWith("packages/")) return "package";
  if (page === "changelog.html") return "changelog";
  return "home";
}

/**
 * The sections of a rendered page: the text before the first heading, then each `h2`/`h3` and what follows it (on an
 * API page each symbol and member too, `h4`/`h5`). `keywords` go with the page's first section; `weight` scales the
 * page against others of its kind.
 */
export function pageSections({ page, title, html }, { keywords = "", weight = 1 } = {}) {
  const kind = kindOf(page);
  const depths = kind === "api" ? "2-5" : "23";
  const parts = html.split(new RegExp(`(?=<h[${depths}] id=")`));
  const boost = Math.round(kindWeights[kind] * weight * 100) / 100;
  return parts.map((part, index) => {
    const [, id, heading] = new RegExp(`^<h[${depths}] id="([^"]+)">([\\s\\S]*?)</h[${depths}]>`).exec(part) ?? [];
    const sectionTitle = heading ? plain(heading) : title;
    // An operation's method, path and operationId, in the line under its heading, are its names too.
    const names = kind === "reference" && id?.startsWith("/") ? [.../^<h\d[^>]*>[\s\S]*?<\/h\d>\s*<p>([\s\S]*?)<\/p>/.exec(part)?.[1].matchAll(/<code>([^<]*)<\/code>/g) ?? []].map(([, text]) => text).join(" ") : "";
    return {
      url: index && id ? `${page}#${id}` : page,
      title: sectionTitle,
      page: title,
      keywords: index ? names : keywords,
      text: plain(part).slice(0, 2000),
      boost,
    };
  });
}

/** The search terms a page's Markdown declares (`<!-- keywords: pagination, paging -->`). */
export const pageKeywords = (markdown) => [...markdown.matchAll(/^<!-- keywords: (.+?) -->\s*$/gm)].map(([, words]) => words.replace(/,/g, " ")).join(" ");

/**
 * Every rendered page's sections. A page about a surface weighs by how much of the guides is about that surface (the
 * scraper's codes before the consent bridge's), given as `surfaceWeight(api)`.
 */
export function searchDocuments(rendered, surfaceWeight = () => 1) {
  return rendered.flatMap((entry) => pageSections(entry, { keywords: pageKeywords(entry.markdown), weight: entry.api || entry.reference ? surfaceWeight(entry.api ?? entry.reference.api) : 1 }));
}

/** Builds the index script from page sections (`{ url, title, page, keywords, text, boost }`). */
export function searchIndexScript(documents) {
  const index = new MiniSearch(searchOptions);
  const seen = new Set();
  index.addAll(documents.filter(({ url }) => !seen.has(url) && seen.add(url)));
  return `window.__searchIndex = ${JSON.stringify(index)};\n`;
}
