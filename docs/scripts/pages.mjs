// Markdown pages to HTML. Markers keep the pages from drifting: `<!-- snippet: name -->` becomes snippets/<name>.ts
// (type-checked by `tsc` against the packages), `<!-- example: <api>/<Name> -->` a named example of a description,
// `<!-- references -->` the list of reference pages. Links to `.md` pages become `.html`; headings get ids.
import { readFile } from "node:fs/promises";
import { Marked } from "marked";
import { docsDir, escapeHtml } from "./site.mjs";

const marker = /^<!-- (?:(snippet|example): ([\w/-]+)|references) -->\s*$/;

function slugger() {
  const seen = new Map();
  return (text) => {
    const base = text.toLowerCase().replace(/<[^>]+>|[`*_]/g, "").replace(/[^\p{L}\p{N} -]/gu, "").trim().replace(/ +/g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count ? `${base}-${count}` : base;
  };
}

function snippetHtml(name, code) {
  const caption = `<figcaption><code>docs/snippets/${name}.ts</code></figcaption>`;
  return `<figure class="snippet">${caption}<pre><code class="language-ts">${escapeHtml(code.trimEnd())}</code></pre></figure>\n`;
}

function exampleHtml(name, surfaces) {
  const [api, example] = name.split("/");
  const value = surfaces.find((surface) => surface.api === api)?.description.components?.examples?.[example]?.value;
  if (value === undefined) throw new Error(`no example ${example} in spec/dist/${api}.json`);
  return `<figure class="snippet"><figcaption>Example <code>${example}</code> from the ${api} description</figcaption><pre><code class="language-json">${escapeHtml(JSON.stringify(value, null, 2))}</code></pre></figure>\n`;
}

/**
 * Renders one Markdown page. `snippets` collects the snippet names used (the build checks that none is unused);
 * `surfaces` are the descriptions, for examples and the `<!-- references -->` list; `root` leads back to dist/.
 */
export async function renderMarkdown(markdown, { snippets, surfaces, root }) {
  const code = new Map();
  for (const line of markdown.split("\n")) {
    const [, kind, name] = marker.exec(line) ?? [];
    if (kind === "snippet" && !code.has(name)) {
      code.set(name, await readFile(`${docsDir}snippets/${name}.ts`, "utf8"));
      snippets.add(name);
    }
  }
  const slug = slugger();
  const marked = new Marked({
    walkTokens(token) {
      // Relative links to Markdown pages point at the rendered page.
      if (token.type === "link" && !/^[a-z][a-z0-9+.-]*:|^#/i.test(token.href)) token.href = token.href.replace(/\.md(?=$|#)/, ".html");
    },
    renderer: {
      heading({ tokens, depth, text }) {
        return `<h${depth} id="${slug(text)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
      html({ text }) {
        const [match, kind, name] = marker.exec(text.trim()) ?? [];
        if (!match) return text;
        if (kind === "snippet") return snippetHtml(name, code.get(name));
        if (kind === "example") return exampleHtml(name, surfaces);
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
  return { title: title.replace(/[`*_]/g, ""), html: marked.parse(markdown) };
}
