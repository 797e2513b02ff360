// Breaking-change detection: each built description (spec/dist/<api>.json) against the description as last released
// (spec/released/<api>.json). Both are normalized (normalize.mjs), api-smart-diff classifies every change (breaking /
// non-breaking / annotation / unclassified / deprecated) over what differs (scoped-diff.mjs), and rules on top judge the
// classes it gets wrong (consumer-rules.mjs, contract-extensions.mjs, security-requirements.mjs). The policy: a breaking
// change needs a pending changeset that bumps @content-scraper/spec by major, or a correction line that acknowledges it
// on its surface, at its pointer, of its kind, from its value before to its value after (corrections.mjs); a correction
// that acknowledges nothing fails.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { contractExtensionChanges } from "./contract-extensions.mjs";
import { correctionFor, correctionLine, digestedValues, kindOf, parseCorrections } from "./corrections.mjs";
import { pointer } from "./json-pointer.mjs";
import { affectedPaths, conventions, normalizeDescription } from "./normalize.mjs";
import { ROOT } from "./packages.mjs";
import { scopedApiDiff } from "./scoped-diff.mjs";
import { requirementOf, securityRequirementChanges } from "./security-requirements.mjs";

/** @typedef {{ type: string, action: string, path: string, description: string, rule?: string, differ?: string, before?: unknown, after?: unknown }} Change */
/** @typedef {import("./corrections.mjs").Correction} Correction */

export const SPEC_PACKAGE = "@content-scraper/spec";
export const DIST_DIR = join(ROOT, "spec/dist");
export const RELEASED_DIR = join(ROOT, "spec/released");
export const CHANGESET_DIR = join(ROOT, ".changeset");

/** The APIs with a released baseline: spec/released/<api>.json. */
export function releasedApis(releasedDir = RELEASED_DIR) {
  return readdirSync(releasedDir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => basename(f, ".json"))
    .sort();
}

/**
 * Every difference between two descriptions, in words, classified: `type` is the verdict (a rule's, named in `rule`, where
 * one judges the change), `differ` api-smart-diff's own; `before` and `after` are the values it changes (one is absent
 * where it adds or removes one).
 * @param {Record<string, any>} before
 * @param {Record<string, any>} after
 * @returns {Change[]}
 */
export function diffDescriptions(before, after) {
  // A convention on either side is compared as a component: one that an operation starts to use is not removed.
  const scope = { only: affectedPaths(before, after), kept: new Set([...conventions(before), ...conventions(after)]) };
  const [from, to] = [normalizeDescription(before, scope), normalizeDescription(after, scope)];
  const rules = [...contractExtensionChanges(from, to), ...securityRequirementChanges(before, after)];
  const overridden = new Set(rules.map((c) => c.path));
  const diffs = scopedApiDiff(from, to).filter((d) => !overridden.has(pointer(d.path)) && !overridden.has(requirementOf(d.path) ?? ""));
  // A security requirement the rule keeps: every call authorized before still is, whatever its items became.
  const kept = (/** @type {typeof diffs[number]} */ d) => requirementOf(d.path) !== undefined;
  return [...rules, ...diffs.map((d) => ({
    type: kept(d) ? "non-breaking" : d.type,
    differ: d.differ,
    ...(kept(d) ? { rule: "security requirement" } : d.rule && { rule: d.rule }),
    action: d.action,
    path: pointer(d.path),
    ...(d.action !== "add" && { before: d.before }),
    ...(d.action !== "remove" && { after: d.after }),
    description: d.description ?? `[${d.action}] ${pointer(d.path)}`,
  }))];
}

/**
 * The changes the gate holds against a release: those classified breaking that no correction acknowledges (by surface,
 * pointer, kind, and the values before and after: corrections.mjs).
 * @template {Change} C
 * @param {C[]} changes
 * @param {{ surface?: string, corrections?: readonly Correction[] }} [acknowledging]
 */
export const gateBreaking = (changes, { surface = "", corrections = [] } = {}) =>
  changes.filter((c) => c.type === "breaking" && !correctionFor(corrections, surface, c));

/** The changesets that bump a package, with their bump and text. Parses the changeset front matter. */
function changesetsOf(changesetDir = CHANGESET_DIR, packageName = SPEC_PACKAGE) {
  /** @type {{ file: string, bump: "major" | "minor" | "patch", text: string }[]} */
  const found = [];
  for (const file of readdirSync(changesetDir).filter((f) => f.endsWith(".md") && f !== "README.md")) {
    const text = readFileSync(join(changesetDir, file), "utf8");
    const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? "";
    for (const line of front.split(/\r?\n/)) {
      const m = /^\s*["']?([^"':]+)["']?\s*:\s*(major|minor|patch)\s*$/.exec(line);
      if (m && m[1] === packageName) found.push({ file, bump: /** @type {"major" | "minor" | "patch"} */ (m[2]), text });
    }
  }
  return found;
}

/** The bump each pending changeset gives a package. */
export const pendingBumps = (changesetDir = CHANGESET_DIR, packageName = SPEC_PACKAGE) =>
  changesetsOf(changesetDir, packageName).map(({ file, bump }) => ({ file, bump }));

/**
 * The corrections of the pending changesets that bump the spec package (`- correction \`<surface>\` \`#/pointer\`
 * <kind> from \`<before>\` to \`<after>\`: why`, corrections.mjs), and the correction lines that do not say all of it.
 */
export const pendingCorrections = (changesetDir = CHANGESET_DIR, packageName = SPEC_PACKAGE) => parseCorrections(changesetsOf(changesetDir, packageName));

/** The correction lines a failing report prints at most. */
const MAX_STUBS = 20;
/** The characters of a digested value's JSON a failing report prints under its correction line. */
const MAX_JSON = 300;
const RESPONSE = /\bResponse (\d{3}|[1-5]xx|[1-5]XX|default)\b/;

/**
 * The report's lines for one surface's changes: the same change at many places (a shared component compared where each
 * operation and each of its responses uses it) is one line, with the statuses it is in, its first pointer and how many
 * more places it is at.
 * @param {(Change & { verdict: string })[]} changes
 */
function reportLines(changes) {
  /** @type {Map<string, { verdict: string, description: string, statuses: Set<string>, paths: string[] }>} */
  const groups = new Map();
  for (const c of changes) {
    const status = RESPONSE.exec(c.description)?.[1];
    const description = c.description.replace(RESPONSE, "Response {status}");
    const key = `${c.verdict}\n${c.action}\n${description}`;
    const group = groups.get(key) ?? { verdict: c.verdict, description, statuses: new Set(), paths: [] };
    if (status) group.statuses.add(status.replace(/xx$/, "XX"));
    group.paths.push(c.path);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ verdict, description, statuses, paths }) => {
    const more = paths.length > 1 ? `, and ${paths.length - 1} more place${paths.length > 2 ? "s" : ""} like it` : "";
    return `- ${verdict}: ${description.replace("{status}", [...statuses].join(", "))} (${paths[0]}${more})`;
  });
}

/**
 * Compares every released API with its build. Returns the changes per API, the report in words and whether the policy
 * holds: no breaking change that a correction does not acknowledge (or a major changeset for the spec package), and no
 * correction that acknowledges nothing or does not say what it acknowledges.
 */
export function checkApiChanges({ distDir = DIST_DIR, releasedDir = RELEASED_DIR, changesetDir = CHANGESET_DIR } = {}) {
  const apis = releasedApis(releasedDir);
  const results = apis.map((api) => {
    const builtPath = join(distDir, `${api}.json`);
    const before = JSON.parse(readFileSync(join(releasedDir, `${api}.json`), "utf8"));
    if (!existsSync(builtPath)) {
      /** @type {Change[]} */
      const changes = [{ type: "breaking", action: "remove", path: "#", description: `[Removed] the whole ${api} description`, before }];
      return { api, changes };
    }
    const after = JSON.parse(readFileSync(builtPath, "utf8"));
    return { api, changes: diffDescriptions(before, after) };
  });
  const { corrections, malformed } = pendingCorrections(changesetDir);
  const flagged = results.flatMap((r) => gateBreaking(r.changes).map((c) => ({ api: r.api, ...c })));
  const acknowledging = (/** @type {typeof flagged[number]} */ c) => correctionFor(corrections, c.api, c);
  const acknowledged = flagged.filter(acknowledging);
  const breaking = flagged.filter((c) => !acknowledging(c));
  const unmatched = corrections.filter((k) => !acknowledged.some((c) => acknowledging(c) === k));
  const majors = pendingBumps(changesetDir).filter((b) => b.bump === "major");
  const ok = (breaking.length === 0 || majors.length > 0) && unmatched.length === 0 && malformed.length === 0;

  const lines = ["# API changes since the last release", ""];
  for (const { api, changes } of results) {
    lines.push(`## ${api}`, "");
    if (changes.length === 0) lines.push("No changes.");
    const verdicts = changes.map((c) => {
      const by = c.rule ? ` (the ${c.rule} rule)` : "";
      const correction = c.type === "breaking" ? correctionFor(corrections, api, c) : undefined;
      return { ...c, verdict: correction ? `breaking${by}, a correction (${correction.file})` : `${c.type}${by}` };
    });
    lines.push(...reportLines(verdicts), "");
  }
  if (acknowledged.length > 0) lines.push(`${acknowledged.length} change(s) classified as breaking are acknowledged as corrections by a pending changeset.`, "");
  for (const { file, line } of malformed) {
    lines.push(`A correction in ${file} does not name its surface, pointer, kind and values (\`- correction \`<surface>\` \`#/…\` <kind> from \`<before>\` to \`<after>\`: why\`): ${line}`);
  }
  for (const k of unmatched) {
    // What the gate sees at that pointer, so that a correction written for another before or after can be rewritten.
    const there = (results.find((r) => r.api === k.surface)?.changes ?? []).filter((c) => c.type === "breaking" && c.path === k.pointer).map(kindOf);
    const seen = there.length > 0 ? ` The breaking change there: ${there.join("; ")}.` : "";
    lines.push(`A correction in ${k.file} acknowledges no change: \`${k.surface}\` \`${k.pointer}\` ${k.kind}.${seen}`);
  }
  if (malformed.length + unmatched.length > 0) lines.push("");
  if (breaking.length > 0 && majors.length === 0) {
    // Each line names the change's values before and after; one written as a digest is followed by the JSON it stands for.
    const stubs = [
      ...new Set(
        breaking.map((c) =>
          [correctionLine(c.api, c), ...digestedValues(c).map(({ digest, json }) => `  (\`${digest}\` is ${json.length > MAX_JSON ? `${json.slice(0, MAX_JSON)}…` : json})`)].join("\n"),
        ),
      ),
    ];
    lines.push("The correction line that would acknowledge each breaking change, if it only describes what the service did:", "");
    lines.push(...stubs.slice(0, MAX_STUBS));
    if (stubs.length > MAX_STUBS) lines.push(`- … and ${stubs.length - MAX_STUBS} more, one per pointer above (so many breaking changes are rather a major).`);
    lines.push("");
  }
  if (breaking.length === 0) lines.push(ok ? "Verdict: no breaking change." : "Verdict: FAIL. No breaking change, but the corrections above are wrong.");
  else if (majors.length > 0)
    lines.push(`Verdict: ${breaking.length} breaking change(s), released as a major of ${SPEC_PACKAGE} (${majors.map((m) => m.file).join(", ")}).`);
  else
    lines.push(
      `Verdict: FAIL. ${breaking.length} breaking change(s) and no changeset bumping ${SPEC_PACKAGE} by major. ` +
        "Undo them, acknowledge each that only describes what the service did with a correction line, or add a major changeset with `pnpm changeset`.",
    );
  return { ok, results, breaking, corrections: acknowledged, unmatched, malformed, majors, report: `${lines.join("\n")}\n` };
}
