// What the site is made of: the surfaces found in spec/dist, the guides in reading order, and the header every page
// shares. The build and the browser test both read it, so they agree on what must exist.
import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

export const docsDir = fileURLToPath(new URL("..", import.meta.url));
export const distDir = `${docsDir}dist`;
export const specDist = `${docsDir}node_modules/@content-scraper/spec/dist`;

/** The guides under pages/guides/, in reading order (the build fails on a guide missing here or a stray file). */
export const guides = [
  "quick-start",
  "catalog-walks",
  "errors-retries-billing",
  "rate-limits",
  "sandbox",
  "oauth",
  "migrating-to-oauth",
];

/**
 * Every bundled description (`<api>.json`, not `.deref.json`), by title: new surfaces appear without code changes.
 */
export async function surfaces() {
  const files = (await readdir(specDist)).filter((file) => file.endsWith(".json") && !file.endsWith(".deref.json"));
  const all = await Promise.all(
    files.map(async (file) => {
      const description = JSON.parse(await readFile(`${specDist}/${file}`, "utf8"));
      const api = file.slice(0, -".json".length);
      return { api, page: `reference/${api}.html`, title: description.info.title, description };
    }),
  );
  return all.sort((a, b) => (a.title < b.title ? -1 : 1));
}

const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"];

/** The operations of a description: operationId, method, path, summary and tags. */
export function operations(description) {
  return Object.entries(description.paths ?? {}).flatMap(([path, item]) =>
    methods.filter((method) => item[method]).map((method) => ({ method, path, ...item[method] })),
  );
}

export const escapeHtml = (text) =>
  String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The bar at the top of every page. `root` leads from the page back to dist/ ("" or "../"). */
export function siteHeader(root) {
  return `<header class="site-header">
  <a class="site-title" href="${root}index.html">Content Scraper docs</a>
  <nav aria-label="Site"><a href="${root}index.html#guides">Guides</a><a href="${root}index.html#api-reference">API reference</a></nav>
</header>`;
}
