// Builds the docs site into dist/: a reference page per surface in spec/dist (static HTML, with request samples and a
// try-it console), the guides, the error codes (an index and a page per code), each published package's overview and
// API (TypeDoc), the changelog, the offline search index, llms.txt and llms-full.txt, and beside every page its
// Markdown (`page.md`). Everything the pages load is in dist/, so the site works offline, from a server under any path,
// and from file://.
import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { LegacyClient, PlatformClient } from "@content-scraper/platform";
import { build as bundle } from "esbuild";
import { apiMarkdown, readDeclarations, symbolLinks } from "./api-docs.mjs";
import { changelogMarkdown } from "./changelog.mjs";
import { errorCodePages, errorsMarkdown, errorsPage } from "./errors.mjs";
import { llmsFull, llmsIndex } from "./llms.mjs";
import { markdownVersion } from "./markdown-version.mjs";
import { highlightCss } from "./highlight.mjs";
import { firstParagraph, renderMarkdown } from "./pages.mjs";
import { referenceMarkdown } from "./reference.mjs";
import { focusedMethods, languages, samplesFor } from "./samples.mjs";
import { searchDocuments, searchIndexScript } from "./search.mjs";
import { colourScheme, distDir, docsDir, escapeHtml, forIntegrators, guideList, guides, overviewGuides, packages, repoDir, siteHeader, surfaces } from "./site.mjs";
import { tryItDialog, tryItData } from "./try-it-data.mjs";

const run = promisify(execFile);
const tsc = `${docsDir}node_modules/typescript/bin/tsc`;

const references = await surfaces();
const published = await packages();

/** The methods of each surface's client class: a platform operation with a method of its name uses it in samples. */
const clientMethods = {
  platform: new Set(Object.getOwnPropertyNames(PlatformClient.prototype)),
  "platform-legacy": new Set(Object.getOwnPropertyNames(LegacyClient.prototype)),
};

/** Every operation's samples, written to dist/samples/<api>/<operationId>.<language> (the tests run these files). */
async function writeSamples() {
  const all = new Map();
  for (const { api, description } of references) {
    const entries = samplesFor(api, description, clientMethods[api]);
    all.set(api, entries);
    await mkdir(`${distDir}/samples/${api}`, { recursive: true });
    for (const { request, samples } of entries) {
      for (const { id, extension } of languages) {
        if (samples[id]) await writeFile(`${distDir}/samples/${api}/${request.operationId}.${extension}`, samples[id]);
      }
    }
  }
  return all;
}

/** The snippets and the samples against the packages' declarations: no page can show code that no longer compiles. */
async function checkTypes() {
  try {
    await run(process.execPath, [tsc, "-p", `${docsDir}tsconfig.snippets.json`], { cwd: docsDir });
  } catch (error) {
    process.stderr.write(error.stdout ?? String(error));
    throw new Error("the snippets or the samples do not type-check against the packages");
  }
}

/** The guides about a surface, `{ title, page }`, in reading order. */
const guidesAbout = (api) =>
  Promise.all(
    guideList
      .filter(({ surfaces: list }) => list.includes(api))
      .map(async ({ name }) => ({ page: `guides/${name}.html`, title: /^# (.+)$/m.exec(await readFile(`${docsDir}pages/guides/${name}.md`, "utf8"))[1] })),
  );

/**
 * The Markdown sources of every page: `{ page, markdown }` in reading (previous/next) order. A reference page carries
 * its surface (`reference`), for the try-it console; a code's page its `code`.
 */
async function sources(modules, links, allSamples) {
  const read = (path) => readFile(path, "utf8");
  const list = [{ page: "index.html", markdown: await read(`${docsDir}pages/index.md`) }];
  for (const guide of guides) list.push({ page: `guides/${guide}.html`, markdown: await read(`${docsDir}pages/guides/${guide}.md`) });
  for (const surface of references) {
    const about = await guidesAbout(surface.api);
    const markdown = referenceMarkdown(surface, {
      samples: allSamples.get(surface.api),
      guides: [...about, { title: "Error codes", page: errorsPage }],
      pagingGuide: about.find(({ page }) => page === "guides/catalog-walks.html"),
    });
    list.push({ page: surface.page, markdown, reference: surface });
  }
  list.push({ page: errorsPage, markdown: errorsMarkdown(references) });
  list.push(...errorCodePages(references));
  for (const pkg of published) {
    const guide = overviewGuides[pkg.dir];
    const overview = guide
      ? `# ${pkg.name}\n\n${pkg.manifest.description}.\n\nHow to run it, and everything it answers, is in the guide [${guide.title}](../../guides/${guide.name}.md). Its exports are in the [API reference](api.md).\n`
      : forIntegrators(await read(`${repoDir}packages/${pkg.dir}/README.md`));
    list.push({ page: pkg.page, markdown: overview, pkg });
    const scraper = references.find(({ api }) => api === "scraper");
    const referencePage = scraper?.page ?? "index.html";
    const options = { reference: `[API reference](../../${referencePage})`, referencePage, focused: scraper ? focusedMethods(scraper.description) : {} };
    list.push({ page: pkg.apiPage, markdown: apiMarkdown(pkg, modules, links, options), pkg });
  }
  const spec = JSON.parse(await read(`${repoDir}spec/package.json`));
  const released = [{ name: spec.name, dir: "spec", version: spec.version }, ...published.map(({ name, dir, manifest }) => ({ name, dir: `packages/${dir}`, version: manifest.version }))];
  list.push({ page: "changelog.html", markdown: await changelogMarkdown(released, references) });
  return list;
}

/** The site navigation of one page: guides, the reference, the packages and the changelog. */
function navigation(page, root, titles) {
  const link = (href, text) => `<li><a href="${root}${href}"${href === page ? ' aria-current="page"' : ""}>${escapeHtml(text)}</a></li>`;
  return [
    `<ul>${link("index.html", "Overview")}</ul>`,
    "<h2>Guides</h2>",
    `<ul>${guides.map((guide) => link(`guides/${guide}.html`, titles[`guides/${guide}.html`])).join("")}</ul>`,
    "<h2>API reference</h2>",
    `<ul>${references.map(({ page: href, title }) => link(href, title)).join("")}${link(errorsPage, "Error codes")}</ul>`,
    "<h2>Packages</h2>",
    `<ul>${published.map((pkg) => `${link(pkg.page, pkg.name).slice(0, -5)}<ul class="sub">${link(pkg.apiPage, "API")}</ul></li>`).join("")}</ul>`,
    "<h2>Releases</h2>",
    `<ul>${link("changelog.html", "Changelog")}</ul>`,
    "<h2>For agents</h2>",
    `<ul>${link("llms.txt", "llms.txt")}${link("llms-full.txt", "llms-full.txt")}</ul>`,
  ].join("");
}

function tableOfContents(toc) {
  if (toc.length < 2) return "";
  const items = toc.map(({ depth, id, text }) => `<li class="toc-${depth}"><a href="#${id}">${escapeHtml(text)}</a></li>`).join("");
  return `<aside class="toc" aria-label="On this page"><h2>On this page</h2><ul>${items}</ul></aside>`;
}

function pager(list, index, root) {
  const side = (entry, rel, label) =>
    entry ? `<a class="${rel}" rel="${rel}" href="${root}${entry.page}"><small>${label}</small>${escapeHtml(entry.title)}</a>` : "";
  const links = side(list[index - 1], "prev", "Previous") + side(list[index + 1], "next", "Next");
  return links ? `<nav class="pager" aria-label="Previous and next">${links}</nav>` : "";
}

async function buildPages(modules, links, allSamples) {
  const guideNames = (await readdir(`${docsDir}pages/guides`)).filter((file) => file.endsWith(".md")).map((file) => file.slice(0, -3));
  if (guideNames.sort().join() !== [...guides].sort().join()) {
    throw new Error(`pages/guides/ has ${guideNames.join(", ")}; the guide list in scripts/site.mjs has ${guides.join(", ")}`);
  }
  const layout = await readFile(`${docsDir}templates/page.html`, "utf8");
  const used = new Set();
  const list = await sources(modules, links, allSamples);
  const rendered = await Promise.all(
    list.map(async (entry) => {
      const root = "../".repeat(entry.page.split("/").length - 1);
      return { ...entry, root, ...(await renderMarkdown(entry.markdown, { snippets: used, surfaces: references, root, symbols: links })) };
    }),
  );
  const titles = Object.fromEntries(rendered.map(({ page, title }) => [page, title]));
  // A code's page is reached from the index and the reference: previous/next walk the pages of the navigation.
  const walked = rendered.filter(({ code }) => !code);
  await Promise.all(
    rendered.map(async (entry) => {
      const { page, root, title, html, toc, markdown, reference } = entry;
      const summary = firstParagraph(markdown) || title;
      const markdownPage = page.replace(/\.html$/, ".md");
      const values = {
        title: escapeHtml(title),
        summary: escapeHtml(summary.replace(/[`*[\]]|\(.*?\)|<[^>]+>/g, "")),
        root,
        scheme: colourScheme,
        header: siteHeader(root),
        nav: navigation(page, root, titles),
        markdown: markdownPage.split("/").at(-1),
        content: html,
        pager: entry.code ? "" : pager(walked, walked.indexOf(entry), root),
        toc: tableOfContents(toc),
        extra: reference ? tryItDialog(tryItData(reference, allSamples.get(reference.api))) : "",
        bodyClass: reference ? "reference" : "",
      };
      await mkdir(`${distDir}/${page.split("/").slice(0, -1).join("/")}`, { recursive: true });
      await writeFile(`${distDir}/${page}`, layout.replace(/\{\{(\w+)\}\}/g, (_match, key) => values[key]));
      await writeFile(`${distDir}/${markdownPage}`, await markdownVersion(markdown, page, references));
    }),
  );
  const snippets = (await readdir(`${docsDir}snippets`, { recursive: true })).filter((file) => file.endsWith(".ts"));
  const unused = snippets.map((file) => file.slice(0, -3)).filter((name) => !used.has(name));
  if (unused.length) throw new Error(`snippets no page shows: ${unused.join(", ")}`);
  console.log(`pages: ${rendered.length} (each with its .md), snippets: ${used.size}`);
  return rendered;
}

await rm(distDir, { recursive: true, force: true });
await mkdir(`${distDir}/assets`, { recursive: true });
const allSamples = await writeSamples();
const modules = await readDeclarations(published);
const links = symbolLinks(modules);
const [rendered] = await Promise.all([
  buildPages(modules, links, allSamples),
  bundle({ entryPoints: [`${docsDir}client/site.ts`], bundle: true, format: "iife", minify: true, target: "es2022", outfile: `${distDir}/assets/site.js`, logLevel: "warning" }),
  checkTypes(),
]);
// A surface's pages weigh by how many guides are about it: the scraper's codes come before the consent bridge's.
const guidesPer = (api) => guideList.filter(({ surfaces: list }) => list.includes(api)).length;
const mostGuides = Math.max(...references.map(({ api }) => guidesPer(api)));
// The site's styles, and the colours of every highlighted token the pages use.
await writeFile(`${distDir}/assets/site.css`, `${await readFile(`${docsDir}templates/site.css`, "utf8")}\n/* Highlighted tokens */\n${highlightCss()}\n`);
await writeFile(`${distDir}/assets/search-index.js`, searchIndexScript(searchDocuments(rendered, (api) => 0.8 + (0.2 * guidesPer(api)) / mostGuides)));
await writeFile(`${distDir}/llms.txt`, llmsIndex({ references, rendered, published }));
await writeFile(`${distDir}/llms-full.txt`, await llmsFull({ references, rendered }));
console.log(`references: ${references.map(({ page }) => page).join(", ")}`);
console.log(`packages: ${published.map(({ name }) => name).join(", ")}`);
