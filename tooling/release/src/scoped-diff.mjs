// api-smart-diff over only what differs. It classifies each path, operation, request body, response, media type and
// header on its own, so what is equal on both sides can only cost time: the scraper's inlined paths are over a megabyte,
// and one edit of a shared error schema touches ten responses of each of thirty operations, most of them the same.
import { isDeepStrictEqual } from "node:util";
import { apiCompare, combinaryCompareResolver, openapi3Rules, transformComapreRules } from "api-smart-diff";
import { classify } from "./consumer-rules.mjs";
import { METHODS } from "./normalize.mjs";

/** @typedef {Record<string, any>} Node */
/** @typedef {import("api-smart-diff").Diff & { differ: import("api-smart-diff").Diff["type"], rule?: string }} Change */
/** @typedef {{ [key: string]: Shape | true }} Shape the members that are compared on their own: dropped when equal */

/** @type {Shape} */
const MEDIA_TYPES = { "*": { schema: true, example: true, examples: true } };
/** @type {Shape} */
const OPERATION = {
  requestBody: { content: MEDIA_TYPES },
  responses: { "*": { content: MEDIA_TYPES, headers: { "*": true } } },
};
/** @type {Shape} */
const PATHS = { "*": Object.fromEntries(METHODS.map((method) => [method, OPERATION])) };

/**
 * Both sides without the members that `shape` names and that are equal on both, recursively.
 * @param {Node} a
 * @param {Node} b
 * @param {Shape} shape
 * @returns {[Node, Node]}
 */
function prune(a, b, shape) {
  const [left, right] = [{ ...a }, { ...b }];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const inner = shape[key] ?? shape["*"];
    if (!inner) continue;
    if (isDeepStrictEqual(a[key], b[key])) {
      delete left[key];
      delete right[key];
    } else if (inner !== true && isObject(a[key]) && isObject(b[key])) [left[key], right[key]] = prune(a[key], b[key], inner);
  }
  return [left, right];
}

const isObject = (/** @type {unknown} */ value) => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Every api-smart-diff change between two normalized descriptions, computed on what differs, with the verdict of the
 * consumer rules where one judges it (`type`; the differ's own is `differ`). A response that changes the same way under
 * many operations (same status, same before and after) is compared once and its changes repeated at each place.
 * @param {Node} from
 * @param {Node} to
 * @returns {Change[]}
 */
export function scopedApiDiff(from, to) {
  const [before, after] = prune(from.paths ?? {}, to.paths ?? {}, PATHS);
  for (const path of Object.keys(before).filter((p) => p in after)) {
    // A path item's own servers and parameters apply to each of its operations: compare them all.
    const own = (/** @type {Node} */ item) => Object.fromEntries(Object.entries(item ?? {}).filter(([key]) => !METHODS.includes(key)));
    if (!isDeepStrictEqual(own(from.paths[path]), own(to.paths[path]))) [before[path], after[path]] = [from.paths[path], to.paths[path]];
  }
  /** @type {Map<string, (string | number)[][]>} each distinct response change, and where it happens */
  const places = new Map();
  for (const [path, item] of Object.entries(before)) {
    for (const method of METHODS.filter((m) => item[m]?.responses && after[path]?.[m]?.responses)) {
      const [responsesBefore, responsesAfter] = [item[method].responses, after[path][method].responses];
      for (const status of Object.keys(responsesBefore).filter((s) => s in responsesAfter)) {
        const key = JSON.stringify([status, responsesBefore[status], responsesAfter[status]]);
        const seen = places.get(key);
        places.set(key, [...(seen ?? []), ["paths", path, method, "responses", status]]);
        if (seen) {
          delete responsesBefore[status];
          delete responsesAfter[status];
        }
      }
    }
  }
  const { diffs: found, merged } = apiCompare(rangesLowercase({ ...from, paths: before }), rangesLowercase({ ...to, paths: after }), { rules: RULES });
  const verdicts = classify(found, merged);
  const diffs = found.map((diff, i) => ({ ...diff, differ: diff.type, ...verdicts[i] }));
  for (const diff of diffs) if (diff.path[3] === "responses" && /^[1-5]xx$/.test(String(diff.path[4]))) diff.path[4] = String(diff.path[4]).toUpperCase();
  /** @type {Map<string, (string | number)[][]>} */
  const copies = new Map([...places.values()].filter((at) => at.length > 1).map(([first, ...rest]) => [JSON.stringify(first), rest]));
  if (copies.size === 0) return diffs;
  return diffs.flatMap((diff) => [
    diff,
    ...(copies.get(JSON.stringify(diff.path.slice(0, 5))) ?? []).map((place) => ({ ...diff, path: [...place, ...diff.path.slice(5)] })),
  ]);
}

/**
 * The value that tells a union's branch apart by `key`: the property's `const`, or its `enum` of one value.
 * @param {unknown} branch
 * @param {string} key
 */
const tagOf = (branch, key) => {
  const property = /** @type {any} */ (branch)?.properties?.[key];
  return property?.const !== undefined ? property.const : Array.isArray(property?.enum) && property.enum.length === 1 ? property.enum[0] : undefined;
};

/**
 * The property that tells every branch of both unions apart (the /token grants by `grant_type`, a cursor page by
 * `hasMore`): each branch on each side gives it a `const` of its own. The first such property by name, or undefined.
 * @param {unknown} before
 * @param {unknown} after
 */
function discriminatorOf(before, after) {
  if (!Array.isArray(before) || !Array.isArray(after) || before.length === 0 || after.length === 0) return undefined;
  const names = [...new Set([...before, ...after].flatMap((branch) => Object.keys(/** @type {any} */ (branch)?.properties ?? {})))].sort();
  return names.find((key) =>
    [before, after].every((branches) => {
      const tags = branches.map((branch) => tagOf(branch, key));
      return tags.every((tag) => tag !== undefined) && new Set(tags.map((tag) => JSON.stringify(tag))).size === tags.length;
    }),
  );
}

/**
 * api-smart-diff's rules, with `oneOf` and `anyOf` branches paired by their discriminating property where they have one:
 * the differ pairs branches by which differ least, so a branch that gains a field can be paired with another one, and
 * every pairing of a large union is a full comparison. A branch whose tag is gone is removed, a new tag added. Unions
 * without such a property keep the differ's pairing.
 */
const RULES = transformComapreRules(openapi3Rules(), (/** @type {Record<string, any>} */ rule) => {
  const paired = { ...rule };
  for (const combiner of ["/oneOf", "/anyOf"]) {
    if (!rule[combiner]) continue;
    paired[combiner] = {
      ...rule[combiner],
      compare: (/** @type {any} */ context) => (discriminatorOf(context.before.value, context.after.value) ? undefined : combinaryCompareResolver(context)),
      mapping: (/** @type {unknown[]} */ before, /** @type {unknown[]} */ after) => {
        const key = /** @type {string} */ (discriminatorOf(before, after));
        const index = new Map(after.map((branch, i) => [JSON.stringify(tagOf(branch, key)), i]));
        /** @type {{ added: number[], removed: number[], mapped: Record<number, number> }} */
        const pairs = { added: [], removed: [], mapped: {} };
        before.forEach((branch, i) => {
          const j = index.get(JSON.stringify(tagOf(branch, key)));
          if (j === undefined) pairs.removed.push(i);
          else {
            pairs.mapped[i] = j;
            index.delete(JSON.stringify(tagOf(branch, key)));
          }
        });
        pairs.added.push(...index.values());
        return pairs;
      },
    };
  }
  return paired;
});

/**
 * The document with every status range (`2XX`) written in lower case. api-smart-diff pairs response statuses case-blind
 * by lower-casing the keys, then reads both sides under the lower-cased key: a `2XX` response is never compared at all.
 * @param {Node} document
 */
function rangesLowercase(document) {
  const paths = Object.entries(document.paths).map(([path, item]) => [
    path,
    Object.fromEntries(
      Object.entries(item).map(([method, operation]) => [
        method,
        METHODS.includes(method) && operation?.responses
          ? { ...operation, responses: Object.fromEntries(Object.entries(operation.responses).map(([status, r]) => [/^[1-5]XX$/.test(status) ? status.toLowerCase() : status, r])) }
          : operation,
      ]),
    ),
  ]);
  return { ...document, paths: Object.fromEntries(paths) };
}
