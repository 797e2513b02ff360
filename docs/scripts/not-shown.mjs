// Gaps: what the reference leaves undocumented carries `x-not-shown` in the descriptions, and the site shows each gap
// as one callout, "Not documented in v1.3.0: …", where the gap is. The description's own sentence about the gap (the
// house rules require one, for other tools) is left out of the rendered copy, so the reader meets each gap once.
import { escapeHtml } from "./site.mjs";

/** "in v1.3.0" for a description with a version, nothing for a surface whose version is not documented either. */
function release(description) {
  const version = String(description.info?.version ?? "");
  return /^\d/.test(version) ? ` in v${version}` : "";
}

/** The callout for one gap of `description`, as HTML both Markdown and Redoc render as it is. */
export function notDocumented(description, text) {
  const inline = escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
  return `<div class="not-documented" role="note"><strong>Not documented${release(description)}:</strong> ${inline}</div>`;
}

/** The sentences of a description that state a gap in the description's own words. */
const gapSentence = /[^.!?\n]*\bnot shown\b[^.!?\n]*(?:[.!?](?=\s|$)|$)/gi;

/** A description without its gap sentences (blank lines they leave collapse). */
export function withoutGapSentences(text) {
  return text
    .replace(gapSentence, "")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/ {2,}/g, " ")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** A copy of a bundled description in which every `x-not-shown` node's description says its gap once, as a callout. */
export function markNotShown(description) {
  const copy = structuredClone(description);
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== "object") return;
    const gap = node["x-not-shown"];
    if (typeof gap === "string") {
      const words = withoutGapSentences(node.description ?? "");
      node.description = [words, notDocumented(description, gap)].filter(Boolean).join("\n\n");
    }
    Object.values(node).forEach(visit);
  };
  visit(copy);
  return copy;
}
