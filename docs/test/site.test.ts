// The built site in headless Chromium, opened from disk as an integrator would: file:// URLs, no server, and no request
// allowed to leave the machine.
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notShownNote } from "../scripts/not-shown.mjs";
import { distDir, docsDir, guides, operations, surfaces } from "../scripts/site.mjs";

const artifacts = `${docsDir}test-artifacts`;
const references = await surfaces();
const markdownPages = ["index.html", ...guides.map((guide) => `guides/${guide}.html`)];
let browser: Browser;
let context: BrowserContext;

// The page's own files and the data it makes in memory (Redoc's search worker runs from a blob: URL).
const local = (url: string) => /^(file|data|blob):/.test(url);

beforeAll(async () => {
  if (!existsSync(`${distDir}/index.html`)) throw new Error("docs/dist is missing: run `pnpm build` first");
  await mkdir(artifacts, { recursive: true });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Only the pages' own files load; anything else is aborted (and recorded by `open`).
  await context.route("**/*", (route) => (local(route.request().url()) ? route.continue() : route.abort()));
});

afterAll(async () => {
  await browser?.close();
});

/** Opens a page of dist/, recording console errors, uncaught exceptions and any request that would leave the machine. */
async function open(path: string): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  page.on("request", (request) => {
    if (!local(request.url())) problems.push(`request left the machine: ${request.url()}`);
  });
  page.on("websocket", (socket) => problems.push(`websocket opened: ${socket.url()}`));
  await page.goto(pathToFileURL(`${distDir}/${path}`).href);
  return { page, problems };
}

const screenshot = (page: Page, name: string) => page.screenshot({ path: `${artifacts}/${name.replace(/\W+/g, "-")}.png` });

/** Opens a Redoc route (`/tag` or `/tag/operation`) in a loaded reference page. */
async function route(page: Page, path: string): Promise<void> {
  await page.evaluate((hash) => {
    location.hash = hash;
  }, path);
}

/** Whether Redoc comes to render the section of a route, containing all of `texts`. */
const rendered = (page: Page, id: string, texts: string[]) =>
  page
    .waitForFunction(
      ([id, texts]) => {
        const content = document.querySelector(`[data-section-id="${id}"]`)?.textContent;
        return content !== undefined && texts.every((text) => content.includes(text));
      },
      [id, texts] as const,
      // Generous: under a loaded CI machine Redoc can take seconds to render a long section.
      { timeout: 15_000 },
    )
    .then(
      () => true,
      () => false,
    );

/** The links `selector` finds, as [text, href without a leading #]. */
const links = (page: Page, selector: string) =>
  page.$$eval(selector, (anchors) =>
    anchors.map((anchor): [string, string] => [anchor.textContent?.trim() ?? "", (anchor.getAttribute("href") ?? "").replace(/^#/, "")]),
  );

describe.each(references)("$page", ({ page: path, description }) => {
  it("shows every operation, and the gaps of its tags, offline and without errors", async () => {
    const { page, problems } = await open(path);
    const ops = operations(description);
    const found = new Set<(typeof ops)[number]>();
    // Redoc renders operations lazily. Open each tag's route (named by its sidebar link), then each operation's route,
    // `<tag route>/<operationId>` among the tag's links, and check the operation's section shows its summary and path.
    // Redoc renders the sidebar after the page loads: wait until it links every tag.
    const tagNames: string[] = (description.tags ?? []).map((tag: { name: string }) => tag.name);
    await page.waitForFunction(
      (names: string[]) => {
        const labels = new Set([...document.querySelectorAll("#redoc a[href]")].map((anchor) => anchor.textContent?.trim()));
        return names.every((name) => labels.has(name));
      },
      tagNames,
      { timeout: 15_000 },
    );
    const tagLinks = await links(page, "#redoc a[href]");
    for (const tag of description.tags ?? []) {
      const tagRoute = tagLinks.find(([label, href]) => label === tag.name && /^\/[^/]+$/.test(href))?.[1];
      expect(tagRoute, `sidebar link of tag ${tag.name}`).toBeDefined();
      await route(page, tagRoute as string);
      // The tag's name heads its section; its gap, if any, is noted in its description, rendered as Markdown. Redoc
      // mounts the section before filling it, so wait for the text rather than the element.
      const gap = tag["x-not-shown"] ? [notShownNote(description.info.version, tag["x-not-shown"]).replace(/\*/g, "")] : [];
      expect(await rendered(page, tagRoute as string, [tag.name, ...gap]), `section of tag ${tag.name}`).toBe(true);
      const tagText = await page.$eval(`[data-section-id="${tagRoute}"]`, (section) => section.textContent ?? "");
      expect(tagText).not.toContain("**");
      const opRoutes = (await links(page, `#redoc a[href^="#${tagRoute}/"]`)).map(([, href]) => href);
      for (const op of ops.filter(({ tags }) => tags?.includes(tag.name))) {
        const opRoute = opRoutes.find((href) => href.toLowerCase() === `${tagRoute}/${op.operationId}`.toLowerCase());
        if (!opRoute) continue;
        await route(page, opRoute);
        if (await rendered(page, opRoute, [op.summary, op.path])) found.add(op);
      }
    }
    const missing = ops.filter((op) => !found.has(op)).map(({ operationId, method, path: opPath }) => `${operationId}: ${method} ${opPath}`);
    expect(missing).toEqual([]);
    await screenshot(page, path);
    expect(problems).toEqual([]);
    await page.close();
  });
});

// Pages opened to check fragments, by file: each loads once however many links point into it (closed with the browser).
const linkedPages = new Map<string, Promise<{ page: Page; problems: string[] }>>();

describe.each(markdownPages)("%s", (path) => {
  it("renders offline, without errors, and every relative link resolves", async () => {
    const { page, problems } = await open(path);
    await screenshot(page, path);
    const hrefs = await page.$$eval("a[href]", (anchors) => anchors.map((anchor) => anchor.getAttribute("href") ?? ""));
    const targets = hrefs.filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href)).map((href) => new URL(href, page.url()));
    expect(problems).toEqual([]);
    await page.close();

    for (const target of targets) {
      const file = fileURLToPath(target);
      expect(existsSync(file), `${path} links to ${target.pathname}`).toBe(true);
      if (!target.hash) continue;
      if (!linkedPages.has(file)) linkedPages.set(file, open(file.slice(distDir.length + 1)));
      const linked = await (linkedPages.get(file) as Promise<{ page: Page; problems: string[] }>);
      // A Redoc route (#/tag/operation) names a section Redoc renders; any other fragment, an element's id.
      const fragment = decodeURIComponent(target.hash.slice(1));
      if (fragment.startsWith("/")) {
        await route(linked.page, fragment);
        expect(await rendered(linked.page, fragment, []), `${path} links to ${target.hash}`).toBe(true);
      } else {
        expect(await linked.page.$(`[id="${fragment}"]`), `${path} links to ${target.hash}`).not.toBeNull();
      }
      expect(linked.problems).toEqual([]);
    }
  });
});
