// One reference page per surface: Redoc renders a copy of the bundled description that carries what integrators need
// beside the facts (spec/dist is not touched): the request samples, each gap as one callout, links from every error
// response to its code on the error-code page, and links to the guides about the surface.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { errorsPage, responseCodes } from "./errors.mjs";
import { markNotShown } from "./not-shown.mjs";
import { languages } from "./samples.mjs";
import { docsDir, distDir, operations } from "./site.mjs";

const run = promisify(execFile);
const redocly = `${docsDir}node_modules/@redocly/cli/bin/cli.js`;
// The repository's Redocly config: it turns telemetry off, also in the rendered pages.
const config = `${docsDir}../redocly.yaml`;
/** The site header's height, as site.css sets it: Redoc scrolls a section to just below it. */
const headerHeightPx = Number(/--header-height:\s*(\d+)px/.exec(readFileSync(`${docsDir}templates/site.css`, "utf8"))?.[1] ?? 0);

// Redoc's sidebar shows a "Redocly" logo fetched from a CDN. Inline a text logo instead, so no request leaves the
// machine. The build fails if the CLI's Redoc stops loading it from there (then this is no longer needed).
const cdnLogo = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg/g;
const inlineLogo =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='56' height='14'%3E%3Ctext x='0' y='11' font-family='sans-serif' font-size='11' fill='%230044D4'%3ERedocly%3C/text%3E%3C/svg%3E";

const methods = ["get", "put", "post", "delete", "patch"];

/** "[Quick start](../guides/quick-start.html), …": Markdown links from a reference page. */
const guideLinks = (list) => list.map(({ title, page }) => `[${title}](../${page})`).join(", ");

/**
 * The copy Redoc renders. `samples` are the surface's generated samples, `guides` the `{ title, page }` of the guides
 * about it, `pagingGuide` the guide on walking pages.
 */
export function renderCopy({ api, description }, { samples, guides, pagingGuide }) {
  const copy = markNotShown(description);
  // A surface whose version is not documented shows none, rather than "(not shown)" beside its title.
  if (!/^\d/.test(String(copy.info.version))) copy.info.version = "";
  if (guides.length) copy.info.description = `${copy.info.description.trimEnd()}\n\n## Guides\n\n${guides.map(({ title, page }) => `- [${title}](../${page})`).join("\n")}\n`;
  const byId = new Map(samples.map((entry) => [entry.request.operationId, entry]));
  for (const item of Object.values(copy.paths ?? {})) {
    for (const method of methods.filter((name) => item[name])) {
      const operation = item[method];
      const entry = byId.get(operation.operationId);
      operation["x-codeSamples"] = languages
        .filter(({ id }) => entry?.samples[id])
        .map(({ id, lang, label }) => ({ lang, label, source: entry.samples[id] }));
      if (entry?.request.rules.paging && pagingGuide) {
        operation.description = `${operation.description?.trimEnd() ?? ""}\n\nWalking every page: ${guideLinks([pagingGuide])}.`;
      }
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (/^[23]/.test(status)) continue;
        const codes = responseCodes(api, description, response);
        if (!codes.length) continue;
        const links = codes.map(({ code, anchor }) => `[\`${code}\`](../${errorsPage}#${anchor})`).join(", ");
        // Responses are shared components: link on a copy, so each operation's response says it once.
        operation.responses[status] = { ...resolveResponse(copy, response), description: `${resolveResponse(copy, response).description ?? ""}\n\nError ${codes.length > 1 ? "codes" : "code"}: ${links}.` };
      }
    }
  }
  return copy;
}

/** A response object of the copy, following a `$ref` to its component. */
function resolveResponse(copy, response) {
  if (!response.$ref) return response;
  return response.$ref
    .slice(2)
    .split("/")
    .reduce((node, key) => node[key.replaceAll("~1", "/").replaceAll("~0", "~")], copy);
}

/** Renders one surface's page with Redoc into the site's template (`header`: the site's header and menu). */
export async function buildReference(surface, copy, workDir, header) {
  const { api, page, title } = surface;
  const input = `${workDir}/${api}.json`;
  await writeFile(input, JSON.stringify(copy));
  const output = `${distDir}/${page}`;
  // --inlineBundle: the Redoc bundle goes into the page instead of being imported from Redocly's CDN. It is an ES
  // module, and Chromium refuses to load a module file over file://, so a copy beside the page would not run.
  const args = [redocly, "build-docs", input, "--config", config, "--lint-config", "off", "--inlineBundle"];
  args.push("--template", `${docsDir}templates/reference.hbs`, "--title", `${title} · Content Scraper docs`);
  // A section opened by its link scrolls to just below the site's sticky header (its height in site.css), not under it.
  args.push(`--openapi.scrollYOffset=${headerHeightPx}`);
  args.push(`--templateOptions.header=${header}`, "-o", output);
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

/** The operations of every surface, with the route of each in its reference page: for search and llms.txt. */
export function operationPages(surfaces) {
  return surfaces.flatMap(({ api, page, title, description }) =>
    operations(description).map((operation) => ({ api, page, surfaceTitle: title, ...operation })),
  );
}
