import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../scripts/pages.mjs";

const surfaces = [
  {
    api: "scraper",
    page: "reference/scraper.html",
    title: "Content Scraper API",
    description: { info: { summary: "Creator data." }, components: { examples: { Empty: { value: { data: [] } } } } },
  },
];
const render = (markdown: string, snippets = new Set<string>()) => renderMarkdown(markdown, { snippets, surfaces, root: "../" });

describe("renderMarkdown", () => {
  it("inlines snippets as escaped TypeScript and records what it used", async () => {
    const used = new Set<string>();
    const { html } = await render("# Guide\n\n<!-- snippet: pacing -->\n\n<!-- snippet: sandbox-start -->\n", used);
    expect(html).toContain("docs/snippets/pacing.ts");
    expect(html).toContain('<code class="language-ts">import { createScraperClient } from &quot;@content-scraper/client&quot;;');
    expect(html).toContain("(creator) =&gt; scraper.profile(");
    expect(html).toContain("docs/snippets/sandbox-start.ts");
    expect([...used]).toEqual(["pacing", "sandbox-start"]);
  });

  it("fails on a snippet or an example that does not exist", async () => {
    await expect(render("# Guide\n\n<!-- snippet: nope -->\n")).rejects.toThrow(/nope\.ts/);
    await expect(render("# Guide\n\n<!-- example: scraper/Nope -->\n")).rejects.toThrow("no example Nope in spec/dist/scraper.json");
  });

  it("renders examples, the reference list, page links and heading ids", async () => {
    const { title, html } = await render(
      "# The `sandbox`\n\n## 1. Start it\n\n[next](rate-limits.md#the-limits) [site](https://example.com/a.md)\n\n<!-- example: scraper/Empty -->\n\n<!-- references -->\n",
    );
    expect(title).toBe("The sandbox");
    expect(html).toContain('<h2 id="1-start-it">1. Start it</h2>');
    expect(html).toContain('href="rate-limits.html#the-limits"');
    expect(html).toContain('href="https://example.com/a.md"');
    expect(html).toContain("&quot;data&quot;: []");
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
