// What the site is made of: the surfaces found in spec/dist, the guides in reading order, the published packages, and
// the header every page shares. The build and the tests both read it, so they agree on what must exist.
import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

export const docsDir = fileURLToPath(new URL("..", import.meta.url));
export const distDir = `${docsDir}dist`;
export const repoDir = fileURLToPath(new URL("../..", import.meta.url));
export const specDist = `${docsDir}node_modules/@content-scraper/spec/dist`;

/**
 * The guides under pages/guides/, in reading order, with the surfaces each one is about: the reference pages of those
 * surfaces link to them. The build fails on a guide missing here or a stray file.
 */
export const guideList = [
  { name: "quick-start", surfaces: ["scraper"] },
  { name: "catalog-walks", surfaces: ["scraper"] },
  { name: "catalog-exports", surfaces: ["scraper"] },
  { name: "mcp-server", surfaces: ["scraper"] },
  { name: "errors-retries-billing", surfaces: ["scraper"] },
  { name: "rate-limits", surfaces: ["scraper", "platform", "platform-legacy", "connect"] },
  { name: "sandbox", surfaces: ["scraper", "platform", "platform-legacy", "connect"] },
  { name: "oauth", surfaces: ["platform"] },
  { name: "migrating-to-oauth", surfaces: ["platform", "platform-legacy"] },
];
export const guides = guideList.map(({ name }) => name);

/** Sections of a package's README written for its maintainers: the site shows the rest. */
export const maintainerSections = ["How it is built", "Development"];

/** A README without the sections written for its maintainers. */
export function forIntegrators(readme) {
  return readme
    .split(/(?=^## )/m)
    .filter((section) => !maintainerSections.some((title) => section.startsWith(`## ${title}\n`)))
    .join("");
}

/** Packages whose overview for integrators is a guide rather than their README (the sandbox's is written for its maintainers). */
export const overviewGuides = { mock: { name: "sandbox", title: "The partner sandbox" } };

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

/** The published packages (not private), with their manifests: each gets a page for its README and one for its API. */
export async function packages() {
  const found = [];
  for (const dir of (await readdir(`${repoDir}packages`)).sort()) {
    const manifest = JSON.parse(await readFile(`${repoDir}packages/${dir}/package.json`, "utf8").catch(() => "{}"));
    if (!manifest.name || manifest.private) continue;
    found.push({ dir, name: manifest.name, manifest, page: `packages/${dir}/index.html`, apiPage: `packages/${dir}/api.html` });
  }
  return found;
}

const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"];

/** The operations of a description: operationId, method, path, summary and tags. */
export function operations(description) {
  return Object.entries(description.paths ?? {}).flatMap(([path, item]) =>
    methods.filter((method) => item[method]).map((method) => ({ method, path, ...item[method] })),
  );
}

/**
 * The id of a tag's or an operation's section on its reference page (`#/shortvideo`,
 * `#/focused:-shortvideo/shortvideosearchsuggestions`): the route Redoc gave it, so links made for the Redoc pages still
 * land. The name in lower case, spaces as dashes, punctuation other than `:`, `.`, `_` and `-` dropped.
 */
export function referenceAnchor(tag, operationId) {
  const slug = (text) =>
    text
      .trim()
      .toLowerCase()
      .replace(/\s+/g, "-")
      .replace(/[^\p{L}\p{N}:._-]/gu, "");
  return `#/${slug(tag)}${operationId ? `/${slug(operationId)}` : ""}`;
}

export const escapeHtml = (text) =>
  String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The bar at the top of every page: the site's name, search, the colour scheme, and the phone menu. */
export function siteHeader(root) {
  return `<header class="site-header">
  <button class="menu-button" type="button" aria-controls="site-nav" aria-expanded="false"><span aria-hidden="true">☰</span><span class="visually-hidden">Menu</span></button>
  <a class="site-title" href="${root}index.html">Content Scraper docs</a>
  <nav class="header-links" aria-label="Sections"><a href="${root}guides/quick-start.html">Guides</a><a href="${root}reference/scraper.html">API reference</a><a href="${root}packages/client/index.html">Packages</a></nav>
  <div class="search" role="search">
    <label class="visually-hidden" for="search-input">Search the docs</label>
    <input id="search-input" class="search-input" type="search" role="combobox" placeholder="Search ( / )" aria-keyshortcuts="/ Control+K Meta+K" autocomplete="off" aria-autocomplete="list" aria-controls="search-results" aria-expanded="false" data-root="${root}">
    <ul id="search-results" class="search-results" role="listbox" aria-label="Search results" hidden></ul>
  </div>
  <button class="theme-button" type="button" aria-pressed="false"><span aria-hidden="true">◐</span><span class="visually-hidden">Dark mode</span></button>
</header>`;
}

/**
 * Set before the page paints, inline in every page's head: the colour scheme (the reader's choice, under the key the
 * Redoc pages used, else the system's), and `js`, which the styles read to show one sample language at a time.
 */
export const colourScheme = `<script>document.documentElement.classList.add("js");try{var m=localStorage.getItem("redoc.colorMode");if(m!=="light"&&m!=="dark")m=matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light";document.documentElement.classList.add(m)}catch(e){}</script>`;
