import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../scripts/pages.mjs";

const surfaces = [
  {
    api: "scraper",
    page: "reference/scraper.html",
    title: "Content Scraper API",
    description: {
      info: { version: "1.3.0", summary: "Creator data." },
      components: { examples: { Empty: { value: { data: [] } } }, headers: { Reset: { "x-not-shown": "Its format." } } },
    },
  },
];
const symbols = new Map([["createScraperClient", "packages/client/api.html#createScraperClient"]]);
const render = (markdown: string, snippets = new Set<string>()) => renderMarkdown(markdown, { snippets, surfaces, root: "../", symbols });

describe("renderMarkdown", () => {
  it("inlines snippets highlighted, with a copy button and the package symbols they use, and records what it used", async () => {
    const used = new Set<string>();
    const { html } = await render("# Guide\n\n<!-- snippet: pacing -->\n\n<!-- snippet: sandbox-start -->\n", used);
    expect(html).not.toContain("docs/snippets");
    expect(html).toContain('<button class="copy-button" type="button">Copy</button><pre class="shiki');
    expect(html).toContain('Uses <a href="../packages/client/api.html#createScraperClient"><code>createScraperClient</code></a>');
    expect(html).toMatch(/@content-scraper\/client/);
    expect([...used]).toEqual(["pacing", "sandbox-start"]);
  });

  it("fails on a snippet, an example or a gap that does not exist", async () => {
    await expect(render("# Guide\n\n<!-- snippet: nope -->\n")).rejects.toThrow(/nope\.ts/);
    await expect(render("# Guide\n\n<!-- example: scraper/Nope -->\n")).rejects.toThrow("no example Nope in spec/dist/scraper.json");
    await expect(render("# Guide\n\n<!-- not-documented: scraper /components/headers/Nope -->\n")).rejects.toThrow(/no gap/);
  });

  it("renders examples, gaps, the reference list, page links, heading ids and anchors, tables that scroll and the contents", async () => {
    const { title, html, toc } = await render(
      "# The `sandbox`\n\n## 1. Start it\n\n### Codes {#codes}\n\n[next](rate-limits.md#the-limits) [site](https://example.com/a.md) `createScraperClient()` [`createScraperClient`](x.md)\n\n| a |\n|---|\n| `b` |\n\n<!-- example: scraper/Empty -->\n\n<!-- not-documented: scraper /components/headers/Reset -->\n\n<!-- references -->\n",
    );
    expect(title).toBe("The sandbox");
    expect(html).toContain('<h2 id="1-start-it">1. Start it<a class="anchor" href="#1-start-it" aria-label="Link to this section"></a></h2>');
    expect(html).toContain('<h3 id="codes">Codes<a class="anchor"');
    expect(toc).toEqual([
      { depth: 2, id: "1-start-it", text: "1. Start it" },
      { depth: 3, id: "codes", text: "Codes" },
    ]);
    expect(html).toContain('href="rate-limits.html#the-limits"');
    expect(html).toContain('href="https://example.com/a.md"');
    expect(html).toContain('<a href="../packages/client/api.html#createScraperClient"><code>createScraperClient()</code></a>');
    // Inline code inside a link is not linked again.
    expect(html).toContain('<a href="x.html"><code>createScraperClient</code></a>');
    expect(html).toContain('<div class="table-wrap" tabindex="0" role="region" aria-label="Table"><table>');
    expect(html).toContain("[]");
    expect(html).toContain('<strong>Not documented in v1.3.0:</strong> Its format.');
    expect(html).toContain('<li><a href="../reference/scraper.html">Content Scraper API</a>: Creator data.</li>');
  });
});

describe("the sandbox guide", () => {
  it("lists every magic input, key and token the sandbox has, in its tables", async () => {
    const { magicInputs, platformTokens, sandboxKeys } = await import("@content-scraper/mock");
    const guide = await readFile(new URL("../pages/guides/sandbox.md", import.meta.url), "utf8");
    // A table row starts with the value, in backticks.
    const rows = new Set([...guide.matchAll(/^\| `([^`]+)`/gm)].map((match) => match[1]));
    const values = [...magicInputs.map(({ input }) => input), ...Object.values(sandboxKeys), ...Object.values(platformTokens)];
    expect(values.filter((value) => !rows.has(value))).toEqual([]);
  });
});
