// Search, judged on the built index as the site script loads it: a fixed set of queries, each with the page a reader
// means as its first result. Guides and the reference come before package READMEs; error codes, statuses and SDK
// symbols are found by name.
import { existsSync, readFileSync } from "node:fs";
import MiniSearch from "minisearch";
import { describe, expect, it } from "vitest";
import { codePage } from "../scripts/errors.mjs";
import { searchOptions, tokenize } from "../scripts/search.mjs";
import { distDir, referenceAnchor } from "../scripts/site.mjs";

const loadIndex = () => {
  const file = `${distDir}/assets/search-index.js`;
  if (!existsSync(file)) throw new Error("docs/dist is missing: run `pnpm build` first");
  const source = readFileSync(file, "utf8");
  const json = JSON.parse(source.slice(source.indexOf("=") + 1).trim().replace(/;$/, ""));
  return MiniSearch.loadJS(json, searchOptions as never) as MiniSearch<{ url: string; title: string }>;
};

// The table first, then what a reader types next.
const queries = [
  { query: "rate limit", top: "guides/rate-limits.html" },
  { query: "refund", top: "guides/errors-retries-billing.html" },
  { query: "402", top: codePage("scraper", "ErrorCode", "INSUFFICIENT_SCRAPER_CREDITS") },
  { query: "walkPosts", top: "packages/client/api.html#ScraperClient.walkPosts" },
  { query: "SCRAPER_RATE_LIMITED", top: codePage("scraper", "ErrorCode", "SCRAPER_RATE_LIMITED") },
  { query: "pagination", top: "guides/catalog-walks.html" },
  { query: "OAuth", top: "guides/oauth.html" },
  { query: "insufficient_scope", top: codePage("platform", "ErrorCode", "insufficient_scope") },
  { query: "createScraperClient", top: "packages/client/api.html#createScraperClient" },
  { query: "shortvideoSearchSuggestions", top: `reference/scraper.html${referenceAnchor("Focused: shortvideo", "shortvideoSearchSuggestions")}` },
  { query: "Keeping up with new posts", top: "guides/catalog-walks.html#keeping-up-with-new-posts" },
];

describe("search", () => {
  const index = loadIndex();

  it.each(queries)("'$query' finds $top first", ({ query, top }) => {
    const results = index.search(query).slice(0, 5).map(({ url }) => url as string);
    expect(results[0], `top five: ${results.join(", ")}`).toBe(top);
  });

  it("ranks a guide or the reference before a package README for the same words", () => {
    for (const query of ["rate limit", "refund", "pagination"]) {
      const urls = index.search(query).map(({ url }) => url as string);
      const readme = urls.findIndex((url) => /^packages\/[\w-]+\/index\.html/.test(url));
      const guide = urls.findIndex((url) => /^(guides|reference)\//.test(url));
      expect(guide, query).toBeGreaterThanOrEqual(0);
      if (readme >= 0) expect(guide, query).toBeLessThan(readme);
    }
  });

  it("keeps identifiers whole as well as split into words", () => {
    expect(tokenize("SCRAPER_RATE_LIMITED walkPosts x")).toEqual(["SCRAPER_RATE_LIMITED", "SCRAPER", "RATE", "LIMITED", "walkPosts", "walk", "Posts", "x"]);
  });
});
