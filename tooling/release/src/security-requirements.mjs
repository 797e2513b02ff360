// A rule on top of api-smart-diff, which judges a security requirement where it is written (a scope added to the root
// requirement is "unclassified", an operation's `security: []` removed is "non-breaking"), not what a call then needs.
// A call that was authorized before must still be: every alternative that sufficed must still cover one that suffices.
// Judged for the document's requirement (what an operation without its own asks for, and all a surface without
// operations shows) and for each operation with its own on either side.
import { pointer } from "./json-pointer.mjs";
import { METHODS } from "./normalize.mjs";

/** @typedef {Record<string, string[]>} Requirement scheme name → scopes; `{}` asks for nothing */

/** Whether a call that satisfies `held` satisfies `needed`: every scheme `needed` names, with every scope. */
const covers = (/** @type {Requirement} */ held, /** @type {Requirement} */ needed) =>
  Object.entries(needed).every(([scheme, scopes]) => held[scheme] !== undefined && scopes.every((scope) => held[scheme]?.includes(scope)));

/** Whether every call `was` authorized is authorized by `is` (no requirement at all is `[{}]`). */
const keeps = (/** @type {Requirement[] | undefined} */ was = [], /** @type {Requirement[] | undefined} */ is = []) => {
  const alternatives = (/** @type {Requirement[]} */ list) => (list.length === 0 ? [{}] : list);
  return alternatives(was).every((held) => alternatives(is).some((needed) => covers(held, needed)));
};

/**
 * The document's requirement and each operation's, where a call authorized before may now be refused, as breaking
 * changes.
 * @param {Record<string, any>} before
 * @param {Record<string, any>} after
 */
export function securityRequirementChanges(before, after) {
  /**
   * @param {(string | number)[]} at
   * @param {string} what
   * @param {Requirement[] | undefined} was what a call needed
   * @param {Requirement[] | undefined} is what it needs now
   */
  const breaking = (at, what, was = [], is = []) => ({
    type: "breaking",
    action: "replace",
    path: pointer(at),
    rule: "security requirement",
    description: `[Changed] the security requirement of ${what}: a call authorized before may be refused`,
    before: was,
    after: is,
  });
  const changes = keeps(before.security, after.security) ? [] : [breaking(["security"], "every operation without its own", before.security, after.security)];
  for (const [path, item] of Object.entries(before.paths ?? {})) {
    for (const method of METHODS.filter((m) => item?.[m] && after.paths?.[path]?.[m])) {
      const [was, is] = [item[method].security, after.paths[path][method].security];
      const [needed, needs] = [was ?? before.security, is ?? after.security];
      if ((was || is) && !keeps(needed, needs)) changes.push(breaking(["paths", path, method, "security"], `${method.toUpperCase()} ${path}`, needed, needs));
    }
  }
  return changes;
}

/**
 * The requirement (`#/security`, or an operation's `#/paths/…/<method>/security`) a change at `path` lies in, if any: the
 * rule above judges the whole requirement, so the differ's verdicts on its items give way.
 * @param {readonly (string | number)[]} path
 */
export function requirementOf(path) {
  if (path[0] === "security") return pointer(["security"]);
  if (path[0] === "paths" && path[3] === "security" && METHODS.includes(String(path[2]))) return pointer(path.slice(0, 4));
  return undefined;
}
