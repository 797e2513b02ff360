// The packages' API reference: every published package's public declarations, read by TypeDoc. Every exported symbol
// has a doc comment, and every one has its place on the package's API page.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { entryPoints, readDeclarations, symbolLinks, undocumented } from "../scripts/api-docs.mjs";
import { focusedMethods } from "../scripts/samples.mjs";
import { distDir, packages, referenceAnchor, surfaces } from "../scripts/site.mjs";

const published = await packages();
const modules = await readDeclarations(published);

describe("the packages' API reference", () => {
  it("covers every entry point of every published package", () => {
    expect(modules.map(({ module }) => module).sort()).toEqual(published.flatMap((pkg) => entryPoints(pkg).map(({ module }) => module)).sort());
    expect(modules.every(({ reflection }) => (reflection?.children ?? []).length > 0)).toBe(true);
  });

  it("finds a doc comment on every exported symbol", () => {
    expect(undocumented(modules)).toEqual([]);
  });

  it.each(published)("documents every export of $name on its API page, under its anchor", ({ apiPage }) => {
    const html = readFileSync(`${distDir}/${apiPage}`, "utf8");
    const anchors = [...symbolLinks(modules).values()].filter((href) => href.startsWith(`${apiPage}#`)).map((href) => href.split("#")[1]);
    expect(anchors.length).toBeGreaterThan(0);
    expect(anchors.filter((anchor) => !html.includes(`id="${anchor}"`))).toEqual([]);
  });

  it("lists every focused method (focusedClient(scraper, platform).<method>) under focusedClient, linked to its operation", async () => {
    const scraper = (await surfaces()).find(({ api }) => api === "scraper");
    const html = readFileSync(`${distDir}/packages/client/api.html`, "utf8");
    const focused = Object.entries(focusedMethods(scraper?.description)).flatMap(([platform, methods]) => (methods as { method: string; tag: string; operationId: string }[]).map((method) => ({ platform, ...method })));
    expect(focused.length).toBeGreaterThan(0);
    const missing = focused.filter(({ platform, method, tag, operationId }) => {
      const section = html.split(`id="focused.focusedClient"`)[1]?.split("<h4")[0] ?? "";
      return !section.includes(`focusedClient(scraper, &quot;${platform}&quot;).${method}(`) || !section.includes(`href="../../${scraper?.page}${referenceAnchor(tag, operationId)}"`);
    });
    expect(missing.map(({ platform, method }) => `focusedClient(scraper, "${platform}").${method}`)).toEqual([]);
  });
});
