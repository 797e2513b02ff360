// Syntax highlighting at build time (Shiki): every code block becomes coloured HTML for the light and the dark scheme
// at once (CSS variables), so the pages load no highlighter. Each token's colours are a class named after them rather
// than an inline style: the reference pages carry thousands of tokens, and the rules are written once, in site.css.
import { createHash } from "node:crypto";
import { createHighlighter } from "shiki";
import { escapeHtml } from "./site.mjs";

const themes = { light: "github-light-default", dark: "github-dark-default" };
// Fence names as the pages and the samples write them, to Shiki's languages.
const aliases = { ts: "typescript", typescript: "typescript", sh: "shellscript", shell: "shellscript", bash: "shellscript", json: "json", python: "python", py: "python", yaml: "yaml" };

let highlighter;
/** Every token style met, by its class: `highlightCss()` writes their rules. */
const styles = new Map();

/** A token's class: a short hash of its style, the same on every page and every build. */
function tokenClass(style) {
  const name = `hl-${createHash("sha256").update(style).digest("base64url").slice(0, 6)}`;
  styles.set(name, style);
  return name;
}

/** Code as highlighted HTML (`<pre class="shiki">…`); plain, escaped text for a language Shiki is not given. */
export async function highlight(code, language) {
  highlighter ??= createHighlighter({ themes: Object.values(themes), langs: [...new Set(Object.values(aliases))] });
  const lang = aliases[String(language).toLowerCase()];
  if (!lang) return `<pre class="shiki" tabindex="0"><code>${escapeHtml(code)}</code></pre>`;
  // Shiki makes the block focusable (tabindex), so a keyboard can scroll it when it overflows.
  const html = (await highlighter).codeToHtml(code, { lang, themes, defaultColor: false });
  // Lines need no element of their own (nothing styles them), and the reference pages have thousands of them.
  return html
    .replace(/<span class="line">([\s\S]*?)<\/span>(?=\n|<\/code>)/g, "$1")
    .replace(/<span style="([^"]+)">/g, (_match, style) => `<span class="${tokenClass(style)}">`);
}

/** The rules of every token class the pages use, sorted: appended to site.css by the build. */
export function highlightCss() {
  return [...styles]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, style]) => `.${name}{${style}}`)
    .join("\n");
}
