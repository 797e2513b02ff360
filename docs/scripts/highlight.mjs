// Syntax highlighting at build time (Shiki): every code block becomes coloured HTML for the light and the dark scheme
// at once (CSS variables), so the pages load no highlighter.
import { createHighlighter } from "shiki";
import { escapeHtml } from "./site.mjs";

const themes = { light: "github-light-default", dark: "github-dark-default" };
// Fence names as the pages and the samples write them, to Shiki's languages.
const aliases = { ts: "typescript", typescript: "typescript", sh: "shellscript", shell: "shellscript", bash: "shellscript", json: "json", python: "python", py: "python", yaml: "yaml" };

let highlighter;

/** Code as highlighted HTML (`<pre class="shiki">…`); plain, escaped text for a language Shiki is not given. */
export async function highlight(code, language) {
  highlighter ??= createHighlighter({ themes: Object.values(themes), langs: [...new Set(Object.values(aliases))] });
  const lang = aliases[String(language).toLowerCase()];
  if (!lang) return `<pre class="shiki" tabindex="0"><code>${escapeHtml(code)}</code></pre>`;
  // Shiki makes the block focusable (tabindex), so a keyboard can scroll it when it overflows.
  return (await highlighter).codeToHtml(code, { lang, themes, defaultColor: false });
}
