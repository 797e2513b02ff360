// Corrections: a pending changeset's acknowledgement that a change the gate classifies as breaking only describes what the
// service already did (a parameter it always required, a value it always refused). Each names the surface, the JSON
// Pointer the report prints and the kind of change it accepts (with the value it accepts, where the change sets a plain
// one), so it covers that one change: not the same pointer on another surface, nor another change there. One that
// covers nothing fails the release, as does a line that does not say all of it.

/** @typedef {{ action: string, path: string, rule?: string, value?: unknown }} Change */
/** @typedef {{ surface: string, pointer: string, kind: string, reason: string, file: string }} Correction */

/** @type {Record<string, string>} */
const DONE = { add: "added", remove: "removed", replace: "replaced", rename: "renamed" };

/**
 * The kind of a change as a correction names it: what was done, who classified it (a rule of the gate, or
 * api-smart-diff) and, where it sets a plain value, that value as JSON: `added (bounds) with \`1\``, `removed (server)`,
 * `replaced (server) with \`"api.example.invalid"\``.
 * @param {Change} change
 */
export const kindOf = (change) => {
  const plain = change.value === null || ["string", "number", "boolean"].includes(typeof change.value);
  return `${DONE[change.action] ?? change.action} (${change.rule ?? "api-smart-diff"})${plain ? ` with \`${JSON.stringify(change.value)}\`` : ""}`;
};

/**
 * The correction line that acknowledges `change` on `surface`, its reason still to write.
 * @param {string} surface
 * @param {Change} change
 */
export const correctionLine = (surface, change) => `- correction \`${surface}\` \`${change.path}\` ${kindOf(change)}: <why it only describes what the service did>`;

const LINE = /^[ \t]*-[ \t]*correction\b(.*)$/gm;
const SCOPED = /^\s+`([a-z][a-z0-9-]*)`\s+`(#[^`]*)`\s+((?:added|removed|replaced|renamed) \([^)]+\)(?: with `[^`]*`)?)\s*:\s*(\S.*)$/;

/**
 * The corrections of changeset texts, and the correction lines that do not name a surface, a pointer, a kind and a reason.
 * @param {{ file: string, text: string }[]} changesets
 */
export function parseCorrections(changesets) {
  /** @type {Correction[]} */
  const corrections = [];
  /** @type {{ file: string, line: string }[]} */
  const malformed = [];
  for (const { file, text } of changesets) {
    for (const [line, rest = ""] of text.matchAll(LINE)) {
      const scoped = SCOPED.exec(rest);
      if (scoped) corrections.push({ surface: scoped[1] ?? "", pointer: scoped[2] ?? "", kind: scoped[3] ?? "", reason: scoped[4] ?? "", file });
      else malformed.push({ file, line: line.trim() });
    }
  }
  return { corrections, malformed };
}

/**
 * The correction that acknowledges `change` on `surface`, if one does.
 * @param {readonly Correction[]} corrections
 * @param {string} surface
 * @param {Change} change
 */
export const correctionFor = (corrections, surface, change) =>
  corrections.find((correction) => correction.surface === surface && correction.pointer === change.path && correction.kind === kindOf(change));
