// Corrections: a pending changeset's acknowledgement that a change the gate classifies as breaking only describes what the
// service already did (a parameter it always required, a value it always refused). Each names the surface, the JSON
// Pointer the report prints, the kind of change (what was done, and which rule classified it) and the values before and
// after it, so it covers that one change: not the same pointer on another surface, nor another change of the same kind
// there (a later edit of a corrected value changes its before or after). One that covers nothing fails the release, as
// does a line that does not say all of it.
import { createHash } from "node:crypto";

/** @typedef {{ action: string, path: string, rule?: string, before?: unknown, after?: unknown }} Change */
/**
 * @typedef {{ surface: string, pointer: string, kind: string, done: string, rule: string, before?: string, after?: string, reason: string, file: string }} Correction
 * `before` and `after` are the digests of the values it names (`digestOf`), absent where the change has no such side.
 */

/** @type {Record<string, string>} */
const DONE = { add: "added", remove: "removed", replace: "replaced", rename: "renamed" };

/** The longest value a correction line writes as JSON; a longer one, or one with a backtick, is written as its digest. */
const MAX_WRITTEN = 80;
const DIGEST = /^sha256:[0-9a-f]{16}$/;

/**
 * The JSON of `value` with every object's keys in order, so that a value is one text however its description orders keys.
 * @param {unknown} value
 * @returns {string}
 */
const canonical = (value) =>
  JSON.stringify(value, (_, v) => (v !== null && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));

/**
 * The digest a correction pins a value by: `sha256:` and the first 16 hex digits of its canonical JSON's SHA-256.
 * @param {unknown} value
 */
export const digestOf = (value) => `sha256:${createHash("sha256").update(canonical(value)).digest("hex").slice(0, 16)}`;

/**
 * A value as a correction line writes it: its JSON where that is short and has no backtick, else its digest.
 * @param {unknown} value
 */
const written = (value) => {
  const json = JSON.stringify(value);
  return json.length <= MAX_WRITTEN && !json.includes("`") ? json : digestOf(value);
};

/**
 * The kind of a change as a correction names it: what was done, who classified it (a rule of the gate, or
 * api-smart-diff), and the value before and after it: `added (bounds) to \`1\``, `removed (server) from \`"api.example.invalid"\``,
 * `replaced (server) from \`"api.example.com"\` to \`"api.example.invalid"\``, `added (api-smart-diff) to \`sha256:…\``.
 * @param {Change} change
 */
export const kindOf = (change) =>
  `${DONE[change.action] ?? change.action} (${change.rule ?? "api-smart-diff"})` +
  `${change.before === undefined ? "" : ` from \`${written(change.before)}\``}${change.after === undefined ? "" : ` to \`${written(change.after)}\``}`;

/**
 * The correction line that acknowledges `change` on `surface`, its reason still to write.
 * @param {string} surface
 * @param {Change} change
 */
export const correctionLine = (surface, change) => `- correction \`${surface}\` \`${change.path}\` ${kindOf(change)}: <why it only describes what the service did>`;

/**
 * Each value of `change` a correction line writes as a digest, with its JSON: what a maintainer reads to check the line.
 * @param {Change} change
 */
export const digestedValues = (change) =>
  [change.before, change.after].filter((value) => value !== undefined && DIGEST.test(written(value))).map((value) => ({ digest: digestOf(value), json: JSON.stringify(value) }));

const LINE = /^[ \t]*-[ \t]*correction\b(.*)$/gm;
const SCOPED = /^\s+`([a-z][a-z0-9-]*)`\s+`(#[^`]*)`\s+((added|removed|replaced|renamed) \(([^)]+)\)(?: from `([^`]+)`)?(?: to `([^`]+)`)?)\s*:\s*(\S.*)$/;

/**
 * The digest of a value a correction line writes: as written where it is a digest, else of the JSON it writes (undefined
 * where the line writes no value there; null where what it writes is neither).
 * @param {string | undefined} text
 */
function pinOf(text) {
  if (text === undefined) return undefined;
  if (DIGEST.test(text)) return text;
  try {
    return digestOf(JSON.parse(text));
  } catch {
    return null;
  }
}

/**
 * The corrections of changeset texts, and the correction lines that do not name a surface, a pointer, a kind, a value
 * before or after it, and a reason.
 * @param {{ file: string, text: string }[]} changesets
 */
export function parseCorrections(changesets) {
  /** @type {Correction[]} */
  const corrections = [];
  /** @type {{ file: string, line: string }[]} */
  const malformed = [];
  for (const { file, text } of changesets) {
    for (const [line, rest = ""] of text.matchAll(LINE)) {
      const [, surface = "", pointer = "", kind = "", done = "", rule = "", from, to, reason = ""] = SCOPED.exec(rest) ?? [];
      const [before, after] = [pinOf(from), pinOf(to)];
      if (pointer && (before || after) && before !== null && after !== null) {
        corrections.push({ surface, pointer, kind, done, rule, ...(before && { before }), ...(after && { after }), reason, file });
      } else malformed.push({ file, line: line.trim() });
    }
  }
  return { corrections, malformed };
}

/**
 * Whether `correction` names `change` on `surface`: its surface, pointer, kind, and the values before and after it.
 * @param {Correction} correction
 * @param {string} surface
 * @param {Change} change
 */
const names = (correction, surface, change) =>
  correction.surface === surface &&
  correction.pointer === change.path &&
  correction.done === (DONE[change.action] ?? change.action) &&
  correction.rule === (change.rule ?? "api-smart-diff") &&
  correction.before === (change.before === undefined ? undefined : digestOf(change.before)) &&
  correction.after === (change.after === undefined ? undefined : digestOf(change.after));

/**
 * The correction that acknowledges `change` on `surface`, if one does.
 * @param {readonly Correction[]} corrections
 * @param {string} surface
 * @param {Change} change
 */
export const correctionFor = (corrections, surface, change) => corrections.find((correction) => names(correction, surface, change));
