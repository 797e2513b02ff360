// Markdown pages to HTML. Markers keep the pages from drifting: `<!-- snippet: name -->` becomes snippets/<name>.ts
// (type-checked by `tsc` against the packages), `<!-- example: <api>/<Name> -->` a named example of a description,
// `<!-- references -->` the list of reference pages, and `<!-- not-documented: <api> <pointer> -->` the gap callout of
// the description node at that JSON pointer. Code is highlighted at build time and gets a copy button; headings get
// ids and anchors (`## Title {#id}` sets the id); tables scroll inside their box; links to `.md` pages become `.html`;
// inline code that names an exported symbol of a package links to its API page.
import { readFile } from "node:fs/promises";
import { Marked, Renderer } from "marked";
import { highlight } from "./highlight.mjs";
import { notDocumented } from "./not-shown.mjs";
import { languages } from "./samples.mjs";
import { distDir, docsDir, escapeHtml } from "./site.mjs";

const marker = /^<!-- (?:(snippet|example|not-documented|samples?|output|keywords): ([\w/ .,-]+?)|references) -->\s*$/;

/** A page's first paragraph of prose, on one line (for its summary in the page's head and in llms.txt). */
export const firstParagraph = (markdown) =>
  /^(?!#|<|\||[-*] |```|\s*$)(.+(?:\n(?!\s*$).+)*)/m.exec(markdown)?.[1].replace(/\s*\n\s*/g, " ") ?? "";

/** The outputs a snippet's comments promise, in order: `console.log(…); // → 404 PROFILE_NOT_FOUND true`. */
export const promisedOutput = (source) => [...source.matchAll(/console\.log\(.*\);[ \t]*\/\/ → (.+)$/gm)].map((match) => match[1].trim());

/** A request sample the build wrote (`scraper/shortvideoProfile.sh`) and its language. */
async function sample(name) {
  const code = await readFile(`${distDir}/samples/${name}`, "utf8").catch(() => {
    throw new Error(`no sample ${name} in dist/samples`);
  });
  return { code, language: name.endsWith(".py") ? "python" : name.endsWith(".sh") ? "sh" : "ts" };
}

/** An operation's samples (`scraper/shortvideoProfile`) in every language: `[{ id, label, code, language }]`. */
const operationSamples = (name) => Promise.all(languages.map(async ({ id, label, extension }) => ({ id, label, ...(await sample(`${name}.${extension}`)) })));

/**
 * An operation's samples as tabs, one language at a time once the site script runs (it remembers the reader's
 * language across operations and pages). Without JavaScript the tab bar is hidden and every language shows, each
 * block captioned with its language.
 */
async function sampleTabs(name) {
  const base = `sample-${name.replace(/\W+/g, "-")}`;
  const list = await operationSamples(name);
  const tabs = list.map(
    ({ id, label }, index) =>
      `<button type="button" role="tab" id="${base}-${id}-tab" aria-controls="${base}-${id}" aria-selected="${index === 0}" tabindex="${index === 0 ? 0 : -1}" data-language="${id}">${escapeHtml(label)}</button>`,
  );
  const panels = await Promise.all(
    list.map(
      async ({ id, label, code, language }, index) =>
        `<div class="tab-panel${index === 0 ? " active" : ""}" role="tabpanel" id="${base}-${id}" aria-labelledby="${base}-${id}-tab" data-language="${id}">${await codeBlock(code, language, escapeHtml(label))}</div>`,
    ),
  );
  return `<div class="sample-tabs"><div class="tab-list" role="tablist" aria-label="Request samples">${tabs.join("")}</div>${panels.join("")}</div>\n`;
}

/** Text of rendered HTML as plain characters again (the contents escape it once). */
const unescapeHtml = (text) => text.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** Heading ids: lower-case words joined by dashes, numbered when a page repeats one. */
export function slugger() {
  const seen = new Map();
  return (text) => {
    const base = text.toLowerCase().replace(/<[^>]+>|[`*_]/g, "").replace(/[^\p{L}\p{N} -]/gu, "").trim().replace(/ +/g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count ? `${base}-${count}` : base;
  };
}

// `example` is JSON shown plain: the reference's example bodies, many and long, load no highlighting markup.
const languageNames = { sh: "Shell", ts: "TypeScript", python: "Python", json: "JSON", example: "JSON", text: "Output" };

/**
 * A code block: highlighted, with a copy button the site script wires up. Its caption bar (the given caption, else
 * the language) holds the button, so that the button never covers a line of code.
 */
export async function codeBlock(code, language, caption = "") {
  const label = caption || languageNames[language] || language || "Code";
  return `<figure class="code"><figcaption>${label}</figcaption><button class="copy-button" type="button">Copy</button>${await highlight(code.trimEnd(), language)}</figure>\n`;
}

/** The exported names a snippet imports from the packages: `[[name, module]]`. */
function imports(code) {
  return [...code.matchAll(/import\s+(?:type\s+)?\{([^}]+)\}\s+from\s+"(@content-scraper\/[^"]+)"/g)].flatMap(([, names, module]) =>
    names
      .split(",")
      .map((name) => name.trim().replace(/^type\s+/, ""))
      .filter(Boolean)
      .map((name) => [name, module]),
  );
}

/** The caption of a snippet: the package symbols it uses, each linked to its API documentation where there is one. */
function snippetCaption(code, symbols, root) {
  const used = imports(code);
  if (!used.length) return "";
  const links = used.map(([name]) => {
    const href = symbols.get(name);
    return href ? `<a href="${root}${href}"><code>${escapeHtml(name)}</code></a>` : `<code>${escapeHtml(name)}</code>`;
  });
  const modules = [...new Set(used.map(([, module]) => module))].map((module) => `<code>${escapeHtml(module)}</code>`);
  return `Uses ${links.join(", ")} from ${modules.join(" and ")}`;
}

/** The node at a JSON pointer of a description (`/components/headers/Retry-After`). */
function pointerNode(description, pointer) {
  return pointer
    .split("/")
    .slice(1)
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce((node, key) => node?.[key], description);
}

/**
 * Renders one Markdown page to `{ title, html, toc, text }`. `snippets` collects the snippet names used (the build
 * checks that none is unused); `surfaces` are the descriptions, for examples, gaps and the `<!-- references -->` list;
 * `root` leads back to dist/; `symbols` maps exported names to their API page (`packages/client/api.html#…`), for
 * links; `rewriteLink` may change a link's target (READMEs' links into the repository).
 */
export async function renderMarkdown(markdown, { snippets, surfaces, root, symbols = new Map(), rewriteLink = (href) => href }) {
  const code = new Map();
  for (const line of markdown.split("\n")) {
    const [, kind, name] = marker.exec(line) ?? [];
    if (kind === "snippet" && !code.has(name)) {
      code.set(name, await readFile(`${docsDir}snippets/${name}.ts`, "utf8"));
      snippets.add(name);
    }
  }
  const slug = slugger();
  const toc = [];
  // Inline code inside a link is not linked again (a link in a link splits into two, one of them empty).
  let inLink = false;
  const blocks = new Map();
  const marked = new Marked({
    async: true,
    async walkTokens(token) {
      if (token.type === "link" && !/^[a-z][a-z0-9+.-]*:|^#/i.test(token.href)) {
        // Relative links to Markdown pages point at the rendered page.
        token.href = rewriteLink(token.href).replace(/\.md(?=$|#)/, ".html");
      }
      if (token.type === "code") blocks.set(token, await codeBlock(token.text, token.lang ?? ""));
      if (token.type === "heading") {
        // `## Title {#id}`: the id is given, and the braces are not part of the title.
        const last = token.tokens.at(-1);
        const [suffix, id] = /\s*\{#([\w.:/-]+)\}\s*$/.exec(last?.type === "text" ? last.text : "") ?? [];
        if (suffix) {
          token.id = id;
          last.text = last.text.slice(0, -suffix.length);
          last.raw = last.text;
        }
      }
      if (token.type === "html") {
        const [match, kind, name] = marker.exec(token.text.trim()) ?? [];
        if (match && kind === "snippet") blocks.set(token, await codeBlock(code.get(name), "ts", snippetCaption(code.get(name), symbols, root)));
        if (match && kind === "example") blocks.set(token, await exampleHtml(name, surfaces));
        if (match && kind === "sample") {
          const { code: source, language } = await sample(name);
          blocks.set(token, await codeBlock(source, language));
        }
        if (match && kind === "samples") blocks.set(token, await sampleTabs(name));
        if (match && kind === "output") {
          const source = code.get(name) ?? (await readFile(`${docsDir}snippets/${name}.ts`, "utf8"));
          blocks.set(token, await codeBlock(promisedOutput(source).join("\n"), "text"));
        }
      }
    },
    renderer: {
      heading({ tokens, depth, text, id: given }) {
        const id = given ?? slug(text);
        const content = this.parser.parseInline(tokens);
        // The reference's schemas are many and looked up from the fields that name them, not from the contents.
        if ((depth === 2 || depth === 3) && !id.startsWith("/schemas/")) toc.push({ depth, id, text: unescapeHtml(content.replace(/<[^>]+>/g, "")) });
        const anchor = depth > 1 ? `<a class="anchor" href="#${id}" aria-label="Link to this section"></a>` : "";
        return `<h${depth} id="${id}">${content}${anchor}</h${depth}>\n`;
      },
      code(token) {
        return blocks.get(token);
      },
      link(token) {
        inLink = true;
        const html = Renderer.prototype.link.call(this, token);
        inLink = false;
        return html;
      },
      codespan({ text }) {
        const name = text.replace(/\(\)$/, "");
        const href = inLink ? undefined : symbols.get(name);
        const html = `<code>${escapeHtml(text)}</code>`;
        return href ? `<a href="${root}${href}">${html}</a>` : html;
      },
      table(token) {
        const html = Renderer.prototype.table.call(this, token);
        return `<div class="table-wrap" tabindex="0" role="region" aria-label="Table">${html}</div>\n`;
      },
      html(token) {
        if (blocks.has(token)) return blocks.get(token);
        const [match, kind, name] = marker.exec(token.text.trim()) ?? [];
        if (!match) return token.text;
        if (kind === "keywords") return "";
        if (kind === "not-documented") {
          const [api, pointer] = name.split(" ");
          const description = surfaces.find((surface) => surface.api === api)?.description;
          const gap = description && pointerNode(description, pointer)?.["x-not-shown"];
          if (!gap) throw new Error(`no gap (x-not-shown) at ${pointer} in the ${api} description`);
          return `${notDocumented(description, gap)}\n`;
        }
        return `<ul class="references">${surfaces
          .map(({ page, title, description }) => {
            const summary = description.info.summary ? `: ${escapeHtml(description.info.summary)}` : "";
            return `<li><a href="${root}${page}">${escapeHtml(title)}</a>${summary}</li>`;
          })
          .join("")}</ul>\n`;
      },
    },
  });
  const title = /^# (.+)$/m.exec(markdown)?.[1];
  if (!title) throw new Error("a page starts with a `# Title` heading");
  const html = await marked.parse(markdown);
  // Emphasis marks and backticks out; an underscore inside a word (`SCRAPER_RATE_LIMITED`) stays.
  return { title: title.replace(/[`*]|(?<!\w)_|_(?!\w)/g, ""), html, toc };
}

async function exampleHtml(name, surfaces) {
  const [api, example] = name.split("/");
  const value = surfaces.find((surface) => surface.api === api)?.description.components?.examples?.[example]?.value;
  if (value === undefined) throw new Error(`no example ${example} in spec/dist/${api}.json`);
  return codeBlock(JSON.stringify(value, null, 2), "json");
}

/** A page's Markdown with its markers replaced by what they stand for, as plain Markdown (for llms-full.txt). */
export async function expandMarkers(markdown, surfaces) {
  const lines = [];
  for (const line of markdown.split("\n")) {
    const [match, kind, name] = marker.exec(line) ?? [];
    if (!match) {
      lines.push(line);
    } else if (kind === "snippet") {
      lines.push("```ts", (await readFile(`${docsDir}snippets/${name}.ts`, "utf8")).trimEnd(), "```");
    } else if (kind === "example") {
      const [api, example] = name.split("/");
      const value = surfaces.find((surface) => surface.api === api)?.description.components?.examples?.[example]?.value;
      lines.push("```json", JSON.stringify(value, null, 2), "```");
    } else if (kind === "sample") {
      const { code, language } = await sample(name);
      lines.push(`\`\`\`${language}`, code.trimEnd(), "```");
    } else if (kind === "samples") {
      for (const { label, code, language } of await operationSamples(name)) lines.push(`${label}:`, "", `\`\`\`${language}`, code.trimEnd(), "```", "");
    } else if (kind === "keywords") {
      // Search terms only.
    } else if (kind === "output") {
      lines.push("```text", ...promisedOutput(await readFile(`${docsDir}snippets/${name}.ts`, "utf8")), "```");
    } else if (kind === "not-documented") {
      const [api, pointer] = name.split(" ");
      const description = surfaces.find((surface) => surface.api === api)?.description;
      lines.push(notDocumented(description, pointerNode(description, pointer)["x-not-shown"]).replace(/<[^>]+>/g, ""));
    } else {
      lines.push(...surfaces.map(({ page, title, description }) => `- [${title}](${page}): ${description.info.summary ?? ""}`));
    }
  }
  return lines.join("\n");
}
