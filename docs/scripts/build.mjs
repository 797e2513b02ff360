// Builds the docs site into dist/: a Redoc reference page per surface in spec/dist (with request samples and a try-it
// console), the guides, the error-code page, each published package's overview and API (TypeDoc), the changelog, the
// offline search index, llms.txt and llms-full.txt. Everything the pages load is in dist/ or inline, so the site works
// offline, from a server under any path, and from file://.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { promisify } from "node:util";
import { LegacyClient, PlatformClient } from "@content-scraper/platform";
import { build as bundle } from "esbuild";
import { apiMarkdown, readDeclarations, symbolLinks } from "./api-docs.mjs";
import { changelogMarkdown } from "./changelog.mjs";
import { errorsMarkdown, errorsPage } from "./errors.mjs";
import { llmsFull, llmsIndex } from "./llms.mjs";
import { firstParagraph, renderMarkdown } from "./pages.mjs";
import { buildReference, renderCopy } from "./reference.mjs";
import { focusedMethods, languages, samplesFor } from "./samples.mjs";
import { pageSections, searchIndexScript } from "./search.mjs";
import { colourScheme, distDir, docsDir, escapeHtml, forIntegrators, guideList, guides, overviewGuides, packages, redocRoute, repoDir, siteHeader, surfaces } from "./site.mjs";
import { tryItData } from "./try-it-data.mjs";

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

/** The Markdown sources of every page but the reference: `{ page, markdown }` in reading (previous/next) order. */
async function sources(modules, links) {
  const read = (path) => readFile(path, "utf8");
  const list = [{ page: "index.html", markdown: await read(`${docsDir}pages/index.md`) }];
  for (const guide of guides) list.push({ page: `guides/${guide}.html`, markdown: await read(`${docsDir}pages/guides/${guide}.md`) });
  list.push({ page: errorsPage, markdown: errorsMarkdown(references) });
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
  list.push({ page: "changelog.html", markdown: await changelogMarkdown([{ name: "@content-scraper/spec", dir: "spec" }, ...published.map(({ name, dir }) => ({ name, dir: `packages/${dir}` }))]) });
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

async function buildPages(modules, links) {
  const guideNames = (await readdir(`${docsDir}pages/guides`)).filter((file) => file.endsWith(".md")).map((file) => file.slice(0, -3));
  if (guideNames.sort().join() !== [...guides].sort().join()) {
    throw new Error(`pages/guides/ has ${guideNames.join(", ")}; the guide list in scripts/site.mjs has ${guides.join(", ")}`);
  }
  const layout = await readFile(`${docsDir}templates/page.html`, "utf8");
  const used = new Set();
  const list = await sources(modules, links);
  const rendered = await Promise.all(
    list.map(async (entry) => {
      const root = "../".repeat(entry.page.split("/").length - 1);
      return { ...entry, root, ...(await renderMarkdown(entry.markdown, { snippets: used, surfaces: references, root, symbols: links })) };
    }),
  );
  const titles = Object.fromEntries(rendered.map(({ page, title }) => [page, title]));
  await Promise.all(
    rendered.map(async (entry, index) => {
      const { page, root, title, html, toc, markdown } = entry;
      const summary = firstParagraph(markdown) || title;
      const values = {
        title: escapeHtml(title),
        summary: escapeHtml(summary.replace(/[`*_[\]]|\(.*?\)/g, "")),
        root,
        scheme: colourScheme,
        header: siteHeader(root),
        nav: navigation(page, root, titles),
        content: html,
        pager: pager(rendered, index, root),
        toc: tableOfContents(toc),
      };
      await mkdir(`${distDir}/${page.split("/").slice(0, -1).join("/")}`, { recursive: true });
      await writeFile(`${distDir}/${page}`, layout.replace(/\{\{(\w+)\}\}/g, (_match, key) => values[key]));
    }),
  );
  const snippets = (await readdir(`${docsDir}snippets`, { recursive: true })).filter((file) => file.endsWith(".ts"));
  const unused = snippets.map((file) => file.slice(0, -3)).filter((name) => !used.has(name));
  if (unused.length) throw new Error(`snippets no page shows: ${unused.join(", ")}`);
  console.log(`pages: ${rendered.length}, snippets: ${used.size}`);
  return { rendered, navigationFor: (page, root) => navigation(page, root, titles) };
}

async function buildReferences(allSamples, navigationFor) {
  const workDir = await mkdtemp(`${tmpdir()}/content-scraper-docs-`);
  try {
    await Promise.all(
      references.map(async (surface) => {
        const about = guideList.filter(({ surfaces: list }) => list.includes(surface.api)).map(({ name }) => ({ name, page: `guides/${name}.html` }));
        const titled = await Promise.all(about.map(async ({ name, page }) => ({ page, title: /^# (.+)$/m.exec(await readFile(`${docsDir}pages/guides/${name}.md`, "utf8"))[1] })));
        const copy = renderCopy(surface, {
          samples: allSamples.get(surface.api),
          guides: [...titled, { title: "Error codes", page: errorsPage }],
          pagingGuide: titled.find(({ page }) => page === "guides/catalog-walks.html"),
        });
        const nav = `<nav class="side-nav" id="site-nav" aria-label="Contents">${navigationFor(surface.page, "../")}</nav>`;
        await buildReference(surface, copy, workDir, `${siteHeader("../")}${nav}`);
        const data = JSON.stringify(tryItData(surface, allSamples.get(surface.api))).replace(/</g, "\\u003c");
        const output = `${distDir}/${surface.page}`;
        const html = await readFile(output, "utf8");
        // Before the page's own </body>: Redoc's inline bundle contains the string too.
        const end = html.lastIndexOf("</body>");
        await writeFile(output, `${html.slice(0, end)}<script type="application/json" id="try-it-data">${data}</script>\n${html.slice(end)}`);
      }),
    );
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  console.log(`references: ${references.map(({ page }) => page).join(", ")}`);
}

/** The search documents: each section of each page, and each operation of each reference page. */
function searchDocuments(rendered) {
  const operations = references.flatMap(({ page, title, description }) =>
    Object.values(description.paths ?? {}).flatMap((item) =>
      Object.entries(item)
        .filter(([, operation]) => operation?.operationId)
        .map(([method, operation]) => ({
          url: `${page}${redocRoute(operation.tags?.[0] ?? "", operation.operationId)}`,
          title: operation.summary ?? operation.operationId,
          page: title,
          keywords: `${operation.operationId} ${method.toUpperCase()} ${Object.keys(description.paths).find((path) => description.paths[path] === item)}`,
          text: (operation.description ?? "").slice(0, 2000),
        })),
    ),
  );
  return [...rendered.flatMap(pageSections), ...operations];
}

await rm(distDir, { recursive: true, force: true });
await mkdir(`${distDir}/assets`, { recursive: true });
const allSamples = await writeSamples();
const modules = await readDeclarations(published);
const links = symbolLinks(modules);
const [{ rendered, navigationFor }] = await Promise.all([
  buildPages(modules, links),
  readFile(`${docsDir}templates/site.css`, "utf8").then((css) => writeFile(`${distDir}/assets/site.css`, css)),
  bundle({ entryPoints: [`${docsDir}client/site.ts`], bundle: true, format: "iife", minify: true, target: "es2022", outfile: `${distDir}/assets/site.js`, logLevel: "warning" }),
]);
await Promise.all([checkTypes(), buildReferences(allSamples, navigationFor)]);
await writeFile(`${distDir}/assets/search-index.js`, searchIndexScript(searchDocuments(rendered)));
await writeFile(`${distDir}/llms.txt`, llmsIndex({ references, rendered, published }));
await writeFile(`${distDir}/llms-full.txt`, await llmsFull({ references, rendered, allSamples }));
console.log(`packages: ${published.map(({ name }) => name).join(", ")}`);
