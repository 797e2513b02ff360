// llms.txt (https://llmstxt.org): an index of the site for language models, with a short section of instructions for
// agents (credits, pacing, backend-only keys: figures from the scraper description's operation table), and
// llms-full.txt, the guides, the references and the error codes as one Markdown text. Both are linked from every page.
import { operationTable } from "@content-scraper/codegen";
import { errorsPage } from "./errors.mjs";
import { markdownVersion } from "./markdown-version.mjs";
import { firstParagraph } from "./pages.mjs";

/** A page's Markdown with its relative links rebased on the site's root (where llms.txt is), pointing at the HTML pages. */
function rebased(markdown, page) {
  return markdown.replace(/\]\((?![a-z][a-z0-9+.-]*:|#)([^)\s]+)\)/gi, (_match, href) => {
    const url = new URL(href, `file:///site/${page}`);
    return `](${url.pathname.slice("/site/".length).replace(/\.md$/, ".html")}${url.hash})`;
  });
}

const environmentName = (api) => `${api.toUpperCase().replace(/\W/g, "_")}_API_KEY`;

/** What an agent calling the APIs must do, with the figures of the scraper description. */
export function agentInstructions(scraper) {
  const table = operationTable(scraper.description);
  const prices = [...new Set(Object.values(table.operations).map((rules) => rules.credits?.standard).filter(Boolean))].sort((a, b) => a - b);
  const limit = table.rateLimit;
  const lines = [
    "## Instructions for agents",
    "",
    `- **Credits.** Every scraper call is paid from a prepaid balance (${prices.join(" or ")} credits a lookup; each page of a listing is one lookup). A confirmed not-found is billed, so never retry one; failures of the service or the platform are refunded. Read what each call cost in \`X-Scraper-Credits-Charged\` and set a budget (\`maxCredits\`) before walking a catalog.`,
    `- **Pacing.** An account gets ${limit?.requestsPerMinute ?? "a limited number of"} requests a minute across all endpoints${limit ? `, with a burst of ${limit.burstSeconds} s of allowance` : ""}. Send through one client per account (it paces every call through one token bucket); on \`429\` wait exactly \`Retry-After\`; retry refunded 5xx errors with backoff and nothing else.`,
    `- **Keys stay on the backend.** Read keys and tokens from the environment (\`${environmentName(scraper.api)}\`), never put one in browser code, a prompt, a log, a file or a repository, and never print one.`,
    "- **Try calls in the sandbox** (`pnpm mock`, see the sandbox guide) before spending credits: it takes any key of the documented prefix.",
    "",
  ];
  return lines.join("\n");
}

/** The index: what the site has, with one line each, and the instructions for agents. */
export function llmsIndex({ references, rendered, published }) {
  const page = (path) => rendered.find((entry) => entry.page === path);
  const line = (path, title, text) => `- [${title}](${path})${text ? `: ${text}` : ""}`;
  const scraper = references.find(({ api }) => api === "scraper");
  return [
    "# Content Scraper docs",
    "",
    `> ${scraper?.description.info.summary ?? ""}`,
    "",
    rebased(firstParagraph(page("index.html").markdown), "index.html"),
    "",
    "Every page is also Markdown: replace `.html` with `.md` in its address.",
    "",
    ...(scraper ? [agentInstructions(scraper)] : []),
    "## Guides",
    "",
    ...rendered
      .filter(({ page: path }) => path.startsWith("guides/"))
      .map(({ page: path, title, markdown }) => line(path, title, rebased(firstParagraph(markdown), path))),
    "",
    "## API reference",
    "",
    ...references.map(({ page: path, title, description }) => line(path, title, description.info.summary)),
    line(errorsPage, "Error codes", "every error code, its status, what it costs and what to do; each has a page of its own"),
    "",
    "## Packages",
    "",
    ...published.flatMap((pkg) => [line(pkg.page, pkg.name, pkg.manifest.description), line(pkg.apiPage, `${pkg.name} API`, "")]),
    "",
    "## Optional",
    "",
    line("changelog.html", "Changelog", "released and pending changes per package, by version and date"),
    line("llms-full.txt", "Full text", "the guides, the references and the error codes in one Markdown file"),
    "",
  ].join("\n");
}

/** Everything an integrator reads, as one Markdown text: the landing page, the guides, the references, the error codes. */
export async function llmsFull({ references, rendered }) {
  const wanted = ({ page }) => page === "index.html" || page.startsWith("guides/") || page.startsWith("reference/") || page === errorsPage || page.startsWith("errors/");
  const scraper = references.find(({ api }) => api === "scraper");
  const parts = await Promise.all(rendered.filter(wanted).map(async ({ page, markdown }) => rebased(await markdownVersion(markdown, page, references), page)));
  return [...(scraper ? [agentInstructions(scraper)] : []), ...parts].join("\n\n---\n\n");
}
