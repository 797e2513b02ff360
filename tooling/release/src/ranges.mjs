// The version ranges a packed manifest publishes. Siblings: a dependency by `^<its version>` (what `workspace:^`
// becomes), a peer by a range its version satisfies that stops before its next major. Third-party packages: caret
// ranges, so that consumers get their fixes and their package managers can dedupe (an exact pin allows neither).
import semver from "semver";

const FIELDS = ["dependencies", "peerDependencies", "optionalDependencies", "devDependencies"];

/**
 * Every range in `manifest` that breaks those rules, as `<field>.<name>: <range> (<why>)`.
 * @param {Record<string, any>} manifest the packed manifest
 * @param {ReadonlyMap<string, string>} siblings each published package's name and version
 */
export function rangeProblems(manifest, siblings) {
  /** @type {string[]} */
  const problems = [];
  for (const field of FIELDS) {
    for (const [name, range] of Object.entries(/** @type {Record<string, string>} */ (manifest[field] ?? {}))) {
      const problem = rangeProblem(field, range, siblings.get(name));
      if (problem) problems.push(`${field}.${name}: ${range} (${problem})`);
    }
  }
  return problems;
}

/** @param {string} field @param {string} range @param {string | undefined} sibling the sibling's version */
function rangeProblem(field, range, sibling) {
  if (/^(workspace|catalog):/.test(range)) return "a pnpm protocol left unpublished";
  if (field === "devDependencies") return undefined;
  if (sibling === undefined) return /^\^\d+\.\d+\.\d+$/.test(range) ? undefined : "a third-party package by anything but a caret range";
  if (field !== "peerDependencies") return range === `^${sibling}` ? undefined : `expected ^${sibling}`;
  if (!semver.satisfies(sibling, range)) return `${sibling} does not satisfy it`;
  return semver.satisfies(`${semver.major(sibling) + 1}.0.0`, range) ? "it reaches the next major" : undefined;
}
