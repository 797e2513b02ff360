// Gaps: what the reference leaves undocumented carries `x-not-shown` in the descriptions, and the site shows each gap
// as one callout, "Not documented in v1.3.0: …", where the gap is. The description's own sentence about the gap (the
// house rules require one, for other tools) is left out of what the pages show, so the reader meets each gap once.
import { escapeHtml } from "./site.mjs";

/** "in v1.3.0" for a description with a version, nothing for a surface whose version is not documented either. */
function release(description) {
  const version = String(description.info?.version ?? "");
  return /^\d/.test(version) ? ` in v${version}` : "";
}

/** The callout for one gap of `description`, as HTML that Markdown keeps as it is. */
export function notDocumented(description, text) {
  const inline = escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
  return `<div class="not-documented" role="note"><strong>Not documented${release(description)}:</strong> ${inline}</div>`;
}

/** A sentence ends at `.`, `!` or `?` before a space: a dot inside code (`error.code`) does not end one. */
const sentenceEnd = /(?<=[.!?])\s+/;
/** The start of a line that is not a paragraph's continuation: a list item, a table row, a heading. */
const blockStart = /^\s*(?:[-*+]\s|\d+\.\s|\||#)/;

/** A line without the sentences that state a gap in the description's own words ("… is not shown in the reference."). */
function withoutGaps(line) {
  const [, marker = "", rest = line] = /^(\s*(?:[-*+]\s+|\d+\.\s+)?)([\s\S]*)$/.exec(line) ?? [];
  const kept = rest.split(sentenceEnd).filter((sentence) => !/\bnot shown\b/i.test(sentence));
  return kept.length ? `${marker}${kept.join(" ")}` : "";
}

/** A description without its gap sentences. Soft line breaks are joined first, so a sentence is one line. */
export function withoutGapSentences(text) {
  return text
    .split(/\n{2,}/)
    .map((block) => {
      const lines = [];
      for (const line of block.split("\n")) {
        if (lines.length && !blockStart.test(line) && !/^\s*\|/.test(lines.at(-1))) lines[lines.length - 1] += ` ${line.trim()}`;
        else lines.push(line);
      }
      return lines
        .map((line) => (/^\s*\|/.test(line) ? line : withoutGaps(line).trimEnd()))
        .filter((line) => line.trim())
        .join("\n");
    })
    .filter(Boolean)
    .join("\n\n")
    .trim();
}

/** The gap as plain text, for code comments and the places that show text rather than Markdown. */
export function notDocumentedText(description, text) {
  return `Not documented${release(description)}: ${text.replaceAll("`", "")}`;
}
