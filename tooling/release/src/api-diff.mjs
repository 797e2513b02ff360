// Breaking-change detection: each built description (spec/dist/<api>.json) against the description as last released
// (spec/released/<api>.json). Both are normalized (normalize.mjs), api-smart-diff classifies every change (breaking /
// non-breaking / annotation / unclassified / deprecated) over what differs (scoped-diff.mjs), and rules on top judge the
// classes it gets wrong (consumer-rules.mjs, contract-extensions.mjs, security-requirements.mjs). The policy: a breaking
// change needs a pending changeset that bumps @content-scraper/spec by major, or a correction line that acknowledges it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { contractExtensionChanges } from "./contract-extensions.mjs";
import { pointer } from "./json-pointer.mjs";
import { affectedPaths, conventions, normalizeDescription } from "./normalize.mjs";
import { ROOT } from "./packages.mjs";
import { scopedApiDiff } from "./scoped-diff.mjs";
import { securityRequirementChanges } from "./security-requirements.mjs";

/** @typedef {{ type: string, action: string, path: string, description: string, rule?: string, differ?: string }} Change */

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
 * one judges the change), `differ` api-smart-diff's own.
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
  const diffs = scopedApiDiff(from, to).filter((d) => !overridden.has(pointer(d.path)));
  return [...rules, ...diffs.map((d) => ({
    type: d.type,
    differ: d.differ,
    ...(d.rule && { rule: d.rule }),
    action: d.action,
    path: pointer(d.path),
    description: d.description ?? `[${d.action}] ${pointer(d.path)}`,
  }))];
}

/**
 * The changes the gate holds against a release: those classified breaking that no pending changeset acknowledges as a
 * correction (by pointer).
 * @template {{ type: string, path: string }} C
 * @param {C[]} changes
 * @param {ReadonlyMap<string, string>} [acknowledged]
 */
export const gateBreaking = (changes, acknowledged = new Map()) => changes.filter((c) => c.type === "breaking" && !acknowledged.has(c.path));

/** The bump a pending changeset gives a package, or undefined. Parses the changeset front matter. */
export function pendingBumps(changesetDir = CHANGESET_DIR, packageName = SPEC_PACKAGE) {
  /** @type {{ file: string, bump: "major" | "minor" | "patch" }[]} */
  const bumps = [];
  for (const file of readdirSync(changesetDir).filter((f) => f.endsWith(".md") && f !== "README.md")) {
    const text = readFileSync(join(changesetDir, file), "utf8");
    const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? "";
    for (const line of front.split(/\r?\n/)) {
      const m = /^\s*["']?([^"':]+)["']?\s*:\s*(major|minor|patch)\s*$/.exec(line);
      if (m && m[1] === packageName) bumps.push({ file, bump: /** @type {"major" | "minor" | "patch"} */ (m[2]) });
    }
  }
  return bumps;
}

/**
 * The changes that pending changesets of the spec package acknowledge as corrections: a line
 * `- correction \`#/json/pointer\`: why` names one change the differ classifies as breaking but that only describes what
 * the service already did (a parameter it always required, a value it always refused). By pointer, with its changeset.
 */
export function pendingCorrections(changesetDir = CHANGESET_DIR, packageName = SPEC_PACKAGE) {
  /** @type {Map<string, string>} */
  const corrections = new Map();
  for (const { file } of pendingBumps(changesetDir, packageName)) {
    const text = readFileSync(join(changesetDir, file), "utf8");
    for (const m of text.matchAll(/^\s*-\s*correction\s+`(#[^`]*)`\s*:\s*\S/gm)) corrections.set(m[1] ?? "", file);
  }
  return corrections;
}

/**
 * Compares every released API with its build. Returns the changes per API, the report in words and
 * whether the policy holds (no breaking change, or a major changeset for the spec package).
 */
export function checkApiChanges({ distDir = DIST_DIR, releasedDir = RELEASED_DIR, changesetDir = CHANGESET_DIR } = {}) {
  const apis = releasedApis(releasedDir);
  const results = apis.map((api) => {
    const builtPath = join(distDir, `${api}.json`);
    if (!existsSync(builtPath)) {
      /** @type {Change[]} */
      const changes = [{ type: "breaking", action: "remove", path: "#", description: `[Removed] the whole ${api} description` }];
      return { api, changes };
    }
    const before = JSON.parse(readFileSync(join(releasedDir, `${api}.json`), "utf8"));
    const after = JSON.parse(readFileSync(builtPath, "utf8"));
    return { api, changes: diffDescriptions(before, after) };
  });
  const acknowledged = pendingCorrections(changesetDir);
  const flagged = results.flatMap((r) => gateBreaking(r.changes).map((c) => ({ api: r.api, ...c })));
  const corrections = flagged.filter((c) => acknowledged.has(c.path));
  const breaking = results.flatMap((r) => gateBreaking(r.changes, acknowledged).map((c) => ({ api: r.api, ...c })));
  const majors = pendingBumps(changesetDir).filter((b) => b.bump === "major");
  const ok = breaking.length === 0 || majors.length > 0;

  const lines = ["# API changes since the last release", ""];
  for (const { api, changes } of results) {
    lines.push(`## ${api}`, "");
    if (changes.length === 0) lines.push("No changes.");
    for (const c of changes) {
      const by = c.rule ? ` (the ${c.rule} rule)` : "";
      const type = c.type === "breaking" && acknowledged.has(c.path) ? `breaking${by}, a correction (${acknowledged.get(c.path)})` : `${c.type}${by}`;
      lines.push(`- ${type}: ${c.description} (${c.path})`);
    }
    lines.push("");
  }
  if (corrections.length > 0) lines.push(`${corrections.length} change(s) classified as breaking are acknowledged as corrections by a pending changeset.`, "");
  if (breaking.length === 0) lines.push("Verdict: no breaking change.");
  else if (majors.length > 0)
    lines.push(`Verdict: ${breaking.length} breaking change(s), released as a major of ${SPEC_PACKAGE} (${majors.map((m) => m.file).join(", ")}).`);
  else
    lines.push(
      `Verdict: FAIL. ${breaking.length} breaking change(s) and no changeset bumping ${SPEC_PACKAGE} by major. ` +
        "Undo them, or add one with `pnpm changeset` (major for @content-scraper/spec).",
    );
  return { ok, results, breaking, corrections, majors, report: `${lines.join("\n")}\n` };
}
