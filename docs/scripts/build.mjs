// Builds the docs site into dist/: one Redoc reference page per surface in spec/dist, the Markdown pages with their
// snippets inlined (and type-checked), and the shared CSS. Everything the pages load is in dist/ or inline, so the site works offline
// and from file://.
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { promisify } from "node:util";
import { markNotShown } from "./not-shown.mjs";
import { renderMarkdown } from "./pages.mjs";
import { distDir, docsDir, escapeHtml, guides, siteHeader, surfaces } from "./site.mjs";

const run = promisify(execFile);
const redocly = `${docsDir}node_modules/@redocly/cli/bin/cli.js`;
const tsc = `${docsDir}node_modules/typescript/bin/tsc`;
// The repository's Redocly config: it turns telemetry off, also in the rendered pages.
const config = `${docsDir}../redocly.yaml`;

// Redoc's sidebar shows a "Redocly" logo fetched from a CDN. Inline a text logo instead, so no request leaves the
// machine. The build fails if the CLI's Redoc stops loading it from there (then this is no longer needed).
const cdnLogo = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg/g;
const inlineLogo =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='56' height='14'%3E%3Ctext x='0' y='11' font-family='sans-serif' font-size='11' fill='%230044D4'%3ERedocly%3C/text%3E%3C/svg%3E";

const references = await surfaces();

async function buildReference({ api, page, title, description }, workDir) {
  const input = `${workDir}/${api}.json`;
  await writeFile(input, JSON.stringify(markNotShown(description)));
  const output = `${distDir}/${page}`;
  // --inlineBundle: the Redoc bundle goes into the page instead of being imported from Redocly's CDN. It is an ES
  // module, and Chromium refuses to load a module file over file://, so a copy beside the page would not run.
  const args = [redocly, "build-docs", input, "--config", config, "--lint-config", "off", "--inlineBundle"];
  args.push("--template", `${docsDir}templates/reference.hbs`, "--title", `${title} · Content Scraper docs`);
  args.push(`--templateOptions.header=${siteHeader("../")}`, "-o", output);
  try {
    await run(process.execPath, args, { cwd: docsDir });
  } catch (error) {
    process.stderr.write(error.stderr ?? String(error));
    throw new Error(`rendering the ${api} reference failed`);
  }
  const html = await readFile(output, "utf8");
  if (!html.match(cdnLogo)) throw new Error("the Redoc bundle no longer loads its logo from the CDN: drop the logo rewrite");
  await writeFile(output, html.replace(cdnLogo, inlineLogo));
}

/** The snippets against the packages' declarations: no page can show code that no longer compiles. */
async function checkSnippets() {
  try {
    await run(process.execPath, [tsc, "-p", `${docsDir}tsconfig.snippets.json`], { cwd: docsDir });
  } catch (error) {
    process.stderr.write(error.stdout ?? String(error));
    throw new Error("the snippets do not type-check against the packages");
  }
}

async function buildPages() {
  const sources = (await readdir(`${docsDir}pages/guides`)).filter((file) => file.endsWith(".md")).map((file) => file.slice(0, -3));
  if (sources.sort().join() !== [...guides].sort().join()) {
    throw new Error(`pages/guides/ has ${sources.join(", ")}; the guide list in scripts/site.mjs has ${guides.join(", ")}`);
  }
  const layout = await readFile(`${docsDir}templates/page.html`, "utf8");
  const used = new Set();
  const pages = [{ source: "index.md", page: "index.html", root: "" }].concat(
    guides.map((guide) => ({ source: `guides/${guide}.md`, page: `guides/${guide}.html`, root: "../" })),
  );
  const rendered = await Promise.all(
    pages.map(async ({ source, page, root }) => {
      const markdown = await readFile(`${docsDir}pages/${source}`, "utf8");
      return { page, root, ...(await renderMarkdown(markdown, { snippets: used, surfaces: references, root })) };
    }),
  );
  const titles = Object.fromEntries(rendered.map(({ page, title }) => [page, title]));
  for (const { page, root, title, html } of rendered) {
    const link = (href, text) => `<a href="${root}${href}"${href === page ? ' aria-current="page"' : ""}>${escapeHtml(text)}</a>`;
    const nav = [
      "<h2>Guides</h2>",
      ...guides.map((guide) => link(`guides/${guide}.html`, titles[`guides/${guide}.html`])),
      "<h2>API reference</h2>",
      ...references.map(({ page: href, title: text }) => link(href, text)),
    ].join("");
    const values = { title, root, header: siteHeader(root), nav, content: html };
    await writeFile(`${distDir}/${page}`, layout.replace(/\{\{(\w+)\}\}/g, (_match, key) => values[key]));
  }
  const snippets = (await readdir(`${docsDir}snippets`, { recursive: true })).filter((file) => file.endsWith(".ts"));
  const unused = snippets.map((file) => file.slice(0, -3)).filter((name) => !used.has(name));
  if (unused.length) throw new Error(`snippets no page shows: ${unused.join(", ")}`);
  console.log(`pages: ${rendered.length}, snippets: ${used.size}`);
}

await rm(distDir, { recursive: true, force: true });
await mkdir(`${distDir}/reference`, { recursive: true });
await mkdir(`${distDir}/guides`);
await mkdir(`${distDir}/assets`);
await copyFile(`${docsDir}templates/site.css`, `${distDir}/assets/site.css`);
await buildPages();
const workDir = await mkdtemp(`${tmpdir()}/content-scraper-docs-`);
try {
  await Promise.all([checkSnippets(), ...references.map((surface) => buildReference(surface, workDir))]);
} finally {
  await rm(workDir, { recursive: true, force: true });
}
console.log(`references: ${references.map(({ page }) => page).join(", ")}`);
