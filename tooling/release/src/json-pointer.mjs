// JSON Pointers (RFC 6901) to name a change, and the JSON Patch operations (RFC 6902) the seeded edits are written in.

/**
 * `#/a/b~1c` from a path of keys.
 * @param {readonly (string | number)[]} path
 */
export const pointer = (path) => `#/${path.map((key) => String(key).replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`;

/** @param {string} at a JSON Pointer without `#` */
const keys = (at) => (at === "" ? [] : at.slice(1).split("/").map((key) => key.replaceAll("~1", "/").replaceAll("~0", "~")));

/**
 * What a local reference (`#/a/b~1c`) points at in `document`, or undefined.
 * @param {unknown} document
 * @param {string} ref
 */
export const resolve = (document, ref) =>
  keys(ref.slice(1)).reduce((/** @type {any} */ at, key) => (at !== null && typeof at === "object" ? at[key] : undefined), document);

/** @typedef {{ op: "add" | "replace" | "remove" | "move" | "copy", path: string, from?: string, value?: unknown }} PatchOperation */

/**
 * A copy of `document` with the operations applied in order. A path that does not exist (except the last key of `add`)
 * throws, so a seeded edit cannot silently miss what it meant to change.
 * @template T
 * @param {T} document
 * @param {readonly PatchOperation[]} operations
 * @returns {T}
 */
export function applyPatch(document, operations) {
  /** @type {any} */
  const root = structuredClone(document);
  /** @param {string} at */
  const locate = (at) => {
    const path = keys(at);
    const last = path.pop();
    let parent = root;
    for (const key of path) {
      if (parent === null || typeof parent !== "object" || !(key in parent)) throw new Error(`No ${key} in ${at}`);
      parent = parent[key];
    }
    if (last === undefined || parent === null || typeof parent !== "object") throw new Error(`Cannot change ${at || "the root"}`);
    return { parent, last };
  };
  /** @param {string} at */
  const get = (at) => {
    const { parent, last } = locate(at);
    if (!(last in parent)) throw new Error(`Nothing at ${at}`);
    return parent[last];
  };
  /** @param {string} at */
  const remove = (at) => {
    const { parent, last } = locate(at);
    if (!(last in parent)) throw new Error(`Nothing at ${at}`);
    const value = parent[last];
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
    return value;
  };
  /** @param {string} at @param {unknown} value */
  const add = (at, value) => {
    const { parent, last } = locate(at);
    if (Array.isArray(parent)) parent.splice(last === "-" ? parent.length : Number(last), 0, value);
    else parent[last] = value;
  };
  for (const { op, path, from = "", value } of operations) {
    if (op === "add") add(path, structuredClone(value));
    else if (op === "remove") remove(path);
    else if (op === "replace") {
      get(path);
      const { parent, last } = locate(path);
      parent[last] = structuredClone(value);
    } else if (op === "move") add(path, remove(from));
    else if (op === "copy") add(path, structuredClone(get(from)));
    else throw new Error(`Unknown operation ${op}`);
  }
  return root;
}
