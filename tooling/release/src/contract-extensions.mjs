// A rule on top of api-smart-diff, which leaves vendor extensions unclassified: the extensions that carry the service's
// rules (spec/extensions.md: prices, billing, paging, limits, key prefixes, retry classes, …) are read by generated
// code, so any change to one is a change consumers feel, and is breaking unless the extension is new.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pointer } from "./json-pointer.mjs";
import { ROOT } from "./packages.mjs";

/**
 * The extensions that code reads: every one spec/extensions.md documents (a table row that starts with its name), but
 * `x-not-shown`, which is prose. Read from that page, so a new extension is a rule the gate holds from the day it is
 * documented.
 */
export const CONTRACT_EXTENSIONS = new Set(
  [...readFileSync(join(ROOT, "spec/extensions.md"), "utf8").matchAll(/^\| `(x-[a-z0-9-]+)`/gm)].map((m) => m[1]).filter((name) => name !== "x-not-shown"),
);

/**
 * Every changed, added or removed value inside a contract extension between two (normalized) descriptions, as breaking
 * changes, one per value (`x-paging/items` added, `x-paging/pageSize/max` replaced), so that each says what changed and a
 * correction names that value alone. An extension that is new is no change.
 * @param {unknown} before
 * @param {unknown} after
 */
export function contractExtensionChanges(before, after) {
  /** @type {{ type: string, action: string, path: string, rule: string, description: string, before?: unknown, after?: unknown }[]} */
  const changes = [];
  const isObject = (/** @type {unknown} */ v) => v !== null && typeof v === "object";
  /** @param {string} extension @param {string} at where it is used @param {unknown} a @param {unknown} b @param {(string | number)[]} path */
  const compare = (extension, at, a, b, path) => {
    if (isObject(a) && isObject(b) && Array.isArray(a) === Array.isArray(b)) {
      const keys = new Set([...Object.keys(/** @type {object} */ (a)), ...Object.keys(/** @type {object} */ (b))]);
      for (const key of keys) compare(extension, at, /** @type {any} */ (a)[key], /** @type {any} */ (b)[key], [...path, key]);
      return;
    }
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    const action = a === undefined ? "add" : b === undefined ? "remove" : "replace";
    const inside = path.slice(path.indexOf(extension) + 1).join(".");
    const what = `${inside ? `\`${inside}\` of ` : ""}${extension}`;
    changes.push({
      type: "breaking",
      action,
      path: pointer(path),
      rule: "contract extension",
      description: `[${{ add: "Added", remove: "Removed", replace: "Changed" }[action]}] ${what}, a rule the clients read, at ${at}`,
      ...(action !== "add" && { before: a }),
      ...(action !== "remove" && { after: b }),
    });
  };
  /** @param {unknown} a @param {unknown} b @param {string[]} path */
  const walk = (a, b, path) => {
    if (!a || typeof a !== "object") return;
    for (const [key, value] of Object.entries(a)) {
      const other = b && typeof b === "object" ? /** @type {Record<string, unknown>} */ (b)[key] : undefined;
      if (CONTRACT_EXTENSIONS.has(key)) compare(key, pointer(path), value, other, [...path, key]);
      else walk(value, other, [...path, key]);
    }
  };
  walk(before, after, []);
  return changes;
}
