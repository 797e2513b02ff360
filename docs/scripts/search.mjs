// The offline search index, built with MiniSearch at build time: every section of every page (guides, package pages,
// error codes, changelog) and every operation of the reference pages. The site script loads it as a plain script
// (`window.__searchIndex`), which works from disk as well as from a server.
import MiniSearch from "minisearch";

/** The options the index is built with; the site script loads it with the same ones. */
export const searchOptions = {
  idField: "url",
  fields: ["title", "keywords", "text"],
  storeFields: ["url", "title", "page"],
  searchOptions: { boost: { title: 3, keywords: 4 }, prefix: true, fuzzy: 0.2, combineWith: /** @type {"AND"} */ ("AND") },
};

const plain = (html) =>
  html
    .replace(/<pre[\s\S]*?<\/pre>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&[a-z]+;|&#\d+;/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/** The sections of a rendered page: the text before the first heading, then each `h2`/`h3` and what follows it. */
export function pageSections({ page, title, html }) {
  const parts = html.split(/(?=<h[23] id=")/);
  return parts.map((part, index) => {
    const [, id, heading] = /^<h[23] id="([^"]+)">([\s\S]*?)<\/h[23]>/.exec(part) ?? [];
    return {
      url: index && id ? `${page}#${id}` : page,
      title: heading ? plain(heading) : title,
      page: title,
      keywords: "",
      text: plain(part).slice(0, 2000),
    };
  });
}

/** Builds the index script from page sections and operations (`{ url, title, page, keywords, text }`). */
export function searchIndexScript(documents) {
  const index = new MiniSearch(searchOptions);
  const seen = new Set();
  index.addAll(documents.filter(({ url }) => !seen.has(url) && seen.add(url)));
  return `window.__searchIndex = ${JSON.stringify(index)};\n`;
}
