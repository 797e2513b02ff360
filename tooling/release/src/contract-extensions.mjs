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
 * Every changed or removed contract extension between two (normalized) descriptions, as breaking changes.
 * @param {unknown} before
 * @param {unknown} after
 */
export function contractExtensionChanges(before, after) {
  /** @type {{ type: string, action: string, path: string, rule: string, description: string }[]} */
  const changes = [];
  /** @param {unknown} a @param {unknown} b @param {string[]} path */
  const walk = (a, b, path) => {
    if (!a || typeof a !== "object") return;
    for (const [key, value] of Object.entries(a)) {
      const other = b && typeof b === "object" ? /** @type {Record<string, unknown>} */ (b)[key] : undefined;
      if (CONTRACT_EXTENSIONS.has(key)) {
        if (JSON.stringify(value) !== JSON.stringify(other)) {
          const action = other === undefined ? "remove" : "replace";
          changes.push({ type: "breaking", action, path: pointer([...path, key]), rule: "contract extension", description: `[${action === "remove" ? "Removed" : "Changed"}] ${key}, a rule the clients read, at ${pointer(path)}` });
        }
      } else walk(value, other, [...path, key]);
    }
  };
  walk(before, after, []);
  return changes;
}
