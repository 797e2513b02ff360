// The built site in headless Chromium, judged as a reader would: every page at desktop and phone widths, in the light
// and the dark scheme, opened from disk (file:// URLs, no server) with no request allowed to leave the machine. One
// browser; pages in parallel contexts. Screenshots land in test-artifacts/.
import { existsSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type RunningMock, startMock } from "@content-scraper/mock";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeTables, codeAnchor, errorsPage } from "../scripts/errors.mjs";
import { notDocumented } from "../scripts/not-shown.mjs";
import { distDir, docsDir, guides, operations, packages, referenceAnchor, surfaces } from "../scripts/site.mjs";

const artifacts = `${docsDir}test-artifacts`;
const references = await surfaces();
const published = await packages();
const staticPages = [
  "index.html",
  ...guides.map((guide) => `guides/${guide}.html`),
  errorsPage,
  ...published.flatMap(({ page, apiPage }) => [page, apiPage]),
  "changelog.html",
];
const referencePages = references.map(({ page }) => page);
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

const screens = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;
const schemes = ["light", "dark"] as const;

let browser: Browser;
const contexts = new Map<string, BrowserContext>();

// The page's own files and the data it makes in memory (Redoc's search worker runs from a blob: URL).
const local = (url: string) => /^(file|data|blob):/.test(url);

beforeAll(async () => {
  if (!existsSync(`${distDir}/index.html`)) throw new Error("docs/dist is missing: run `pnpm build` first");
  await mkdir(artifacts, { recursive: true });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  for (const screen of screens) {
    for (const scheme of schemes) {
      const context = await browser.newContext({ viewport: { width: screen.width, height: screen.height }, colorScheme: scheme });
      // Only the pages' own files load; anything else is aborted (and recorded by `open`).
      await context.route("**/*", (route) => (local(route.request().url()) ? route.continue() : route.abort()));
      contexts.set(`${screen.name}-${scheme}`, context);
    }
  }
});

afterAll(async () => {
  await browser?.close();
});

interface Opened {
  page: Page;
  problems: string[];
}

/** Opens a page of dist/, recording console errors, uncaught exceptions and any request that would leave the machine. */
async function open(context: BrowserContext, path: string, allowed: (url: string) => boolean = local): Promise<Opened> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  page.on("request", (request) => {
    if (!allowed(request.url())) problems.push(`request left the machine: ${request.url()}`);
  });
  page.on("websocket", (socket) => problems.push(`websocket opened: ${socket.url()}`));
  const [file, hash] = path.split("#");
  await page.goto(pathToFileURL(`${distDir}/${file}`).href + (hash === undefined ? "" : `#${hash}`));
  return { page, problems };
}

const screenshot = (page: Page, name: string) => page.screenshot({ path: `${artifacts}/${name.replace(/\W+/g, "-")}.png`, fullPage: false });

/** Waits for Redoc to render its sidebar (it hydrates after load). Generous: a loaded CI machine is slow. */
const redocReady = (page: Page) => page.waitForFunction(() => document.querySelectorAll("#redoc nav a[href], #redoc a[href]").length > 5, null, { timeout: 60_000 });

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
      { timeout: 30_000 },
    )
    .then(
      () => true,
      () => false,
    );

/** Horizontal overflow: how far the page is wider than the screen. */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

const textOf = (html: string) => html.replace(/<[^>]+>/g, "");

describe.each(screens.flatMap((screen) => schemes.map((scheme) => ({ ...screen, scheme }))))("$name ($width×$height), $scheme", ({ name, width, scheme }) => {
  const context = () => contexts.get(`${name}-${scheme}`) as BrowserContext;

  it.concurrent.each(staticPages)("%s fits the screen, gives every code block a copy button, and loads offline without errors", async (path) => {
    const { page, problems } = await open(context(), path);
    await page.waitForLoadState("load");
    expect(await overflow(page), "horizontal overflow in px").toBeLessThanOrEqual(0);
    const blocks = await page.$$eval("pre", (pres) => pres.map((pre) => Boolean(pre.closest("figure.code")?.querySelector(":scope > .copy-button"))));
    expect(blocks.filter((hasButton) => !hasButton)).toEqual([]);
    // The button covers no character of its block: each text box of the code, as laid out, is clear of it.
    const covered = await page.$$eval("figure.code", (figures) =>
      figures.flatMap((figure, index) => {
        const button = (figure.querySelector(":scope > .copy-button") as HTMLElement).getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(figure.querySelector("pre") as HTMLElement);
        const over = [...range.getClientRects()].some((box) => box.right > button.left && box.left < button.right && box.bottom > button.top && box.top < button.bottom);
        return over ? [`code block ${index + 1}`] : [];
      }),
    );
    expect(covered, "code under the copy button").toEqual([]);
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(scheme === "dark");
    // Colours, names, roles and contrast, as axe-core checks them (WCAG 2.1 A and AA).
    await page.addScriptTag({ content: axeSource });
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
      const result = await axe.run(document, { runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"], preload: false });
      return result.violations.filter(({ impact }) => impact === "serious" || impact === "critical").map(({ id, nodes }) => `${id}: ${nodes.map(({ target }) => target.join(" ")).slice(0, 3).join(", ")}`);
    });
    expect(violations).toEqual([]);
    await screenshot(page, `${name}-${scheme}-${path}`);
    expect(problems).toEqual([]);
    await page.close();
  });

  it.concurrent.each(referencePages)("%s fits the screen, shows no raw markup, and loads offline without errors", async (path) => {
    const { page, problems } = await open(context(), path);
    await redocReady(page);
    expect(await overflow(page), "horizontal overflow in px").toBeLessThanOrEqual(0);
    // Text Redoc prints as it is (a server's description, for one) must not show HTML tags or Markdown's backticks.
    const prose = await page.evaluate(() => {
      const copy = document.querySelector("#redoc")?.cloneNode(true) as HTMLElement;
      for (const code of copy.querySelectorAll("pre, code, script, style")) code.remove();
      return copy.textContent ?? "";
    });
    expect(prose.match(/<\/?(?:div|strong|code|p|a)\b[^>]*>|`[^`\s][^`]*`/g) ?? []).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(scheme === "dark");
    await screenshot(page, `${name}-${scheme}-${path}`);
    expect(problems).toEqual([]);
    await page.close();
  });

  if (width < 500) {
    // A guide and a reference page alike: the header search, which finds operations too, is there on a phone.
    it.each(["guides/quick-start.html", "reference/scraper.html"])("%s has a phone menu that opens the whole navigation, with the search in the header", async (path) => {
      const { page, problems } = await open(context(), path);
      const menu = page.locator(".menu-button");
      await expect(menu.isVisible()).resolves.toBe(true);
      await expect(page.locator("#site-nav").isVisible()).resolves.toBe(false);
      await menu.click();
      expect(await menu.getAttribute("aria-expanded")).toBe("true");
      const links = page.locator("#site-nav a");
      expect(await links.count()).toBeGreaterThan(guides.length + references.length);
      await expect(links.first().isVisible()).resolves.toBe(true);
      await expect(page.locator("#search-input").isVisible()).resolves.toBe(true);
      // The open menu lies between the header and the screen's bottom: the menu button (to close it) and the search stay
      // on top, where a finger finds them.
      const layout = await page.evaluate(() => {
        const reachable = (selector: string) => {
          const element = document.querySelector(selector) as Element;
          const box = element.getBoundingClientRect();
          return element.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
        };
        const nav = (document.getElementById("site-nav") as Element).getBoundingClientRect();
        const header = (document.querySelector(".site-header") as Element).getBoundingClientRect();
        return { menu: reachable(".menu-button"), search: reachable("#search-input"), navTop: nav.top - header.bottom, navBottom: nav.bottom - innerHeight };
      });
      expect(layout).toEqual({ menu: true, search: true, navTop: 0, navBottom: 0 });
      await screenshot(page, `${name}-${scheme}-menu-open-${path}`);
      await page.keyboard.press("Escape");
      expect(await menu.getAttribute("aria-expanded")).toBe("false");
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});

describe.each(staticPages)("%s", (path) => {
  it("has heading anchors, on-page contents and previous/next links", async () => {
    const { page, problems } = await open(contexts.get("desktop-light") as BrowserContext, path);
    const headings = await page.$$eval(".doc :is(h2, h3)[id]", (list) =>
      list.map((heading) => ({ id: heading.id, anchor: heading.querySelector("a.anchor")?.getAttribute("href") })),
    );
    expect(headings.filter(({ id, anchor }) => anchor !== `#${id}`)).toEqual([]);
    const contents = await page.$$eval(".toc a", (links) => links.map((link) => link.getAttribute("href")));
    if (headings.length >= 2) expect(contents).toEqual(headings.map(({ id }) => `#${id}`));
    const pager = await page.$$eval(".pager a", (links) => links.map((link) => link.getAttribute("rel")));
    expect(pager).toEqual(path === staticPages[0] ? ["next"] : path === staticPages.at(-1) ? ["prev"] : ["prev", "next"]);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("links", () => {
  const context = () => contexts.get("desktop-light") as BrowserContext;
  // Reference pages opened to check routes, one per file however many links point into it.
  const loaded = new Map<string, Promise<Opened>>();
  const referencePage = (file: string) => {
    if (!loaded.has(file)) {
      loaded.set(
        file,
        open(context(), file.slice(distDir.length + 1)).then(async (opened) => {
          await redocReady(opened.page);
          return opened;
        }),
      );
    }
    return loaded.get(file) as Promise<Opened>;
  };

  /** Checks that a relative link resolves: its file exists, and its fragment names an element or a Redoc route. */
  async function resolves(from: string, target: URL): Promise<void> {
    const file = fileURLToPath(target);
    expect(existsSync(file), `${from} links to ${target.pathname}`).toBe(true);
    const fragment = decodeURIComponent(target.hash.slice(1));
    if (!fragment) return;
    if (fragment.startsWith("/")) {
      // A Redoc route: `/tag/operation`, possibly followed by Redoc's own `#…` within the operation.
      const { page } = await referencePage(file);
      const id = (fragment.split("#")[0] as string).replace(/\/$/, "") || "/";
      await route(page, id);
      if (id !== "/") expect(await rendered(page, id, []), `${from} links to #${fragment}`).toBe(true);
      return;
    }
    const html = readFileSync(file, "utf8");
    expect(html.includes(`id="${fragment}"`), `${from} links to #${fragment}, which ${target.pathname} does not have`).toBe(true);
  }

  it.each(staticPages)("every link of %s resolves, anchors included", async (path) => {
    const { page, problems } = await open(context(), path);
    const hrefs = await page.$$eval("a[href]", (anchors) => anchors.map((anchor) => anchor.getAttribute("href") ?? ""));
    await page.close();
    expect(problems).toEqual([]);
    const targets = [...new Set(hrefs.filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href)))].map((href) => new URL(href, pathToFileURL(`${distDir}/${path}`)));
    for (const target of targets) await resolves(path, target);
  });

  it.each(references)("$page: every sidebar link opens its section in a new tab, and every link of every section resolves", async ({ page: path, description }) => {
    const { page, problems } = await open(context(), path);
    await redocReady(page);
    // Redoc's routes are hash routes, so each opens the same section in a new tab or under a sub-path; none is a path
    // from the host's root.
    const all = await page.$$eval("#redoc a[href]", (anchors) => anchors.map((anchor) => anchor.getAttribute("href") ?? ""));
    expect(all.filter((href) => href.startsWith("/"))).toEqual([]);
    // Each tag and operation route, rendered; the links of each rendered section checked.
    const ops = operations(description);
    const routes = [...new Set([...(description.tags ?? []).map((tag: { name: string }) => referenceAnchor(tag.name)), ...ops.map((op) => referenceAnchor(op.tags?.[0] ?? "", op.operationId))])];
    const missing: string[] = [];
    for (const hash of routes) {
      await route(page, hash.slice(1));
      if (!(await rendered(page, hash.slice(1), []))) missing.push(hash);
    }
    expect(missing, "routes Redoc does not render").toEqual([]);
    // A sidebar link opened on its own, as a new tab would.
    const fresh = await open(context(), `${path}${routes.at(-1)}`);
    expect(await rendered(fresh.page, (routes.at(-1) as string).slice(1), [])).toBe(true);
    // A section opened by its link (an operation, and a section of the API's introduction) scrolls to its heading, which
    // shows below the site's sticky header, not under it.
    const introduction = all.find((href) => href.startsWith("#/section/"));
    const under: string[] = [];
    for (const hash of [routes.at(-1) as string, ...(introduction ? [introduction] : [])]) {
      await route(fresh.page, hash.slice(1));
      const clear = await fresh.page
        .waitForFunction(
          (id) => {
            const heading = document.querySelector(`[data-section-id="${id}"] :is(h1, h2, h3)`);
            const header = document.querySelector(".site-header");
            if (!heading || !header) return false;
            const top = heading.getBoundingClientRect().top;
            // Near the top of the screen, or as near as the page can scroll (the last section of a short page).
            const atEnd = scrollY + innerHeight >= document.documentElement.scrollHeight - 1;
            return top >= header.getBoundingClientRect().bottom && (top < innerHeight / 2 || atEnd);
          },
          hash.slice(1),
          { timeout: 10_000 },
        )
        .then(
          () => true,
          () => false,
        );
      if (!clear) under.push(hash);
    }
    expect(under, "sections whose heading stays under the header").toEqual([]);
    await fresh.page.close();
    const hrefs = await page.$$eval("#redoc a[href]", (anchors) => anchors.map((anchor) => anchor.getAttribute("href") ?? ""));
    const targets = [...new Set(hrefs.filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith("#")))].map((href) => new URL(href, page.url()));
    for (const target of targets) await resolves(path, target);
    expect(problems).toEqual([]);
    expect(fresh.problems).toEqual([]);
    await page.close();
  });
});

describe.each(references)("$page", ({ api, page: path, description }) => {
  it("shows every operation with its summary, path and request samples (each code block with its copy button), and every gap as one note", async () => {
    const { page, problems } = await open(contexts.get("desktop-light") as BrowserContext, path);
    await redocReady(page);
    const missing: string[] = [];
    for (const op of operations(description)) {
      const hash = referenceAnchor(op.tags?.[0] ?? "", op.operationId).slice(1);
      await route(page, hash);
      if (!(await rendered(page, hash, [op.summary, op.path]))) missing.push(`${op.operationId}: ${op.method} ${op.path}`);
      // The first sample (curl) shows in the operation's panel.
      const sample = readFileSync(`${distDir}/samples/${api}/${op.operationId}.sh`, "utf8");
      const curlShown = await page
        .waitForFunction((line) => document.querySelector("#redoc")?.textContent?.includes(line), (sample.split("\n")[0] as string).slice(0, 40), { timeout: 30_000 })
        .then(() => true, () => false);
      if (!curlShown) missing.push(`${op.operationId}: no curl sample`);
      // Every code block Redoc shows (samples, example bodies) has its copy button beside it.
      const bare = await page.$$eval("#redoc pre", (blocks) =>
        blocks.filter((block) => ![1, 2, 3, 4].some((up) => {
          let node: Element | null = block;
          for (let step = 0; step < up; step++) node = node?.parentElement ?? null;
          return node?.querySelector("button");
        })).length,
      );
      if (bare) missing.push(`${op.operationId}: ${bare} code block(s) without a copy button`);
    }
    expect(missing).toEqual([]);
    for (const tag of description.tags ?? []) {
      if (!tag["x-not-shown"]) continue;
      const hash = referenceAnchor(tag.name).slice(1);
      await route(page, hash);
      const note = textOf(notDocumented(description, tag["x-not-shown"]));
      expect(await rendered(page, hash, [tag.name, note]), `gap of tag ${tag.name}`).toBe(true);
      const text = await page.$eval(`[data-section-id="${hash}"]`, (section) => section.textContent ?? "");
      expect(text.split(note).length - 1, `the gap of ${tag.name} is noted once`).toBe(1);
    }
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("search", () => {
  const cases = [
    { kind: "an operation", query: "shortvideoSearchSuggestions", url: `reference/scraper.html${referenceAnchor("Focused: shortvideo", "shortvideoSearchSuggestions")}` },
    { kind: "a guide heading", query: "Keeping up with new posts", url: "guides/catalog-walks.html#keeping-up-with-new-posts" },
    { kind: "an error code", query: "SCRAPER_SYSTEM_BUSY", url: `${errorsPage}#${codeAnchor("scraper", "ErrorCode", "SCRAPER_SYSTEM_BUSY")}` },
  ];

  it.each(cases)("finds $kind ($query) offline, and its result opens it", async ({ query, url }) => {
    const { page, problems } = await open(contexts.get("desktop-light") as BrowserContext, "guides/oauth.html");
    await page.fill("#search-input", query);
    const result = page.locator(`#search-results a[href$="${url}"]`).first();
    await result.waitFor({ timeout: 30_000 });
    await result.click();
    await page.waitForURL((current) => current.href.endsWith(url), { timeout: 30_000 });
    const [, hash] = url.split("#");
    if (hash?.startsWith("/")) expect(await rendered(page, hash, [])).toBe(true);
    else if (hash) expect(await page.locator(`[id="${hash}"]`).count()).toBe(1);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("the error-code page", () => {
  it("has an anchor for every code of every surface, and the reference's error responses link to them", async () => {
    const html = readFileSync(`${distDir}/${errorsPage}`, "utf8");
    const anchors = references.flatMap(({ api, description }) =>
      codeTables(description).flatMap(({ name, codes }) => Object.keys(codes).map((code) => codeAnchor(api, name, code))),
    );
    expect(anchors.filter((anchor) => !html.includes(`id="${anchor}"`))).toEqual([]);
    const { page, problems } = await open(contexts.get("desktop-light") as BrowserContext, "reference/scraper.html#/shortvideo/shortvideoprofile");
    await redocReady(page);
    expect(await rendered(page, "/shortvideo/shortvideoprofile", ["Responses"])).toBe(true);
    // The 400 response, opened as a reader would: its description links to the code's row.
    await page.locator('[data-section-id="/shortvideo/shortvideoprofile"] [role="tab"]', { hasText: /^400$/ }).first().click();
    const link = page.locator(`#redoc a[href$="${errorsPage}#${codeAnchor("scraper", "ErrorCode", "INVALID_INPUT")}"]`).first();
    await link.waitFor({ state: "attached", timeout: 30_000 });
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("try it", () => {
  let mock: RunningMock;

  beforeAll(async () => {
    // The sandbox as a reader starts it: it answers CORS itself, as a page opened from disk needs.
    mock = await startMock({ port: 0, seed: "docs-try-it", timeScale: 0 });
  });

  afterAll(async () => {
    await mock?.close();
  });

  it("sends the operation in view to the sandbox and shows its answer; any other host is refused", async () => {
    // This page may reach the sandbox and nothing else.
    const sandbox = (url: string) => local(url) || url.startsWith(`${mock.url}/`);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.route("**/*", (request) => (sandbox(request.request().url()) ? request.continue() : request.abort()));
    const { page, problems } = await open(context, "reference/scraper.html#/shortvideo/shortvideoprofile", sandbox);
    await redocReady(page);
    await page.click(".try-button");
    const dialog = page.locator("#try-it");
    await expect(dialog.isVisible()).resolves.toBe(true);
    expect(await page.inputValue('#try-it select[name="operation"]')).toBe("shortvideoProfile");
    await page.fill('#try-it input[name="baseUrl"]', mock.baseUrls.scraper);
    await page.click('#try-it button[value="send"]');
    const output = page.locator(".try-it-response");
    await page.waitForFunction(() => document.querySelector(".try-it-response")?.textContent?.startsWith("200"), null, { timeout: 30_000 });
    const answer = (await output.textContent()) ?? "";
    expect(answer).toMatch(/x-scraper-credits-charged: 1/);
    expect(answer).toContain('"username": "creator"');
    // The console itself, checked like the pages: names, roles and contrast.
    await page.addScriptTag({ content: axeSource });
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (context: string, options: object) => Promise<{ violations: { id: string; impact: string }[] }> } }).axe;
      const result = await axe.run("#try-it", { runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"], preload: false });
      return result.violations.filter(({ impact }) => impact === "serious" || impact === "critical").map(({ id }) => id);
    });
    expect(violations).toEqual([]);
    await screenshot(page, "try-it");
    // A host that is not this machine: refused before any request.
    const sent = (await mock.log()).length;
    const offMachine: string[] = [];
    page.on("request", (request) => {
      if (!local(request.url())) offMachine.push(request.url());
    });
    await page.fill('#try-it input[name="baseUrl"]', "https://api.example.com/api/v1");
    await page.click('#try-it button[value="send"]');
    await expect(output.textContent()).resolves.toMatch(/only to a sandbox on this machine/);
    expect(offMachine).toEqual([]);
    expect((await mock.log()).length).toBe(sent);
    expect(problems).toEqual([]);
    await context.close();
  });
});
