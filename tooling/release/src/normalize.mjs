// What consumers feel, not how the description is written: before two descriptions are compared, both are brought to
// one form, so that a rewrite that changes no request or response (a component renamed or moved, a `$ref` inlined,
// `additionalProperties: true` spelt out, a `false` schema written `not: {}`) is no change at all.
import { isDeepStrictEqual } from "node:util";
import { pointer, resolve } from "./json-pointer.mjs";

/** @typedef {Record<string, any>} Node */

/** The members of a path item that are operations. */
export const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

const KINDS = ["schemas", "parameters", "responses", "headers", "examples", "requestBodies", "links", "callbacks", "pathItems"];
/** Keys whose value is a schema or a map or list of schemas, where a boolean schema may stand. */
const SCHEMA_KEYS = new Set(["items", "not", "contains", "if", "then", "else", "propertyNames", "additionalItems", "unevaluatedItems"]);
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);
const SCHEMA_LISTS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);

/** `false` is `{ not: {} }` and `true` is `{}`: the same schemas. */
const schemaForm = (/** @type {unknown} */ value) => (value === false ? { not: {} } : value === true ? {} : value);

/** `#/components/<kind>/<name>` of a local `$ref` to a component, else undefined. */
const componentOf = (/** @type {string} */ ref) => {
  const parts = ref.split("/");
  return parts[1] === "components" && parts.length >= 4 ? parts.slice(0, 4).join("/") : undefined;
};

/**
 * The components a node refers to, directly or through other components.
 * @param {Node} document
 * @param {unknown} node
 */
function reachedFrom(document, node) {
  /** @type {Set<string>} */
  const reached = new Set();
  const pending = [node];
  while (pending.length > 0) {
    const at = pending.pop();
    if (at === null || typeof at !== "object") continue;
    const ref = /** @type {Node} */ (at).$ref;
    const component = typeof ref === "string" ? componentOf(ref) : undefined;
    if (component && !reached.has(component)) {
      reached.add(component);
      pending.push(resolve(document, component));
    }
    pending.push(...Object.values(at));
  }
  return reached;
}

/**
 * The paths whose requests or responses may differ between two descriptions: those whose path item differs, and those
 * that reach (through `$ref`, on either side) a component that differs. Every other path is the same once normalized.
 * @param {Node} before
 * @param {Node} after
 */
export function affectedPaths(before, after) {
  const paths = [...new Set([...Object.keys(before.paths ?? {}), ...Object.keys(after.paths ?? {})])];
  return new Set(
    paths.filter((path) => {
      const [a, b] = [before.paths?.[path], after.paths?.[path]];
      if (!isDeepStrictEqual(a, b)) return true;
      const reached = new Set([...reachedFrom(before, a), ...reachedFrom(after, b)]);
      return [...reached].some((c) => !isDeepStrictEqual(resolve(before, c), resolve(after, c)));
    }),
  );
}

/**
 * The components no operation reaches: a surface's conventions (`spec/extensions.md`), compared as components.
 * @param {Node} document
 */
export function conventions(document) {
  const reached = reachedFrom(document, document.paths);
  return new Set(
    KINDS.flatMap((kind) => Object.keys(document.components?.[kind] ?? {}).map((name) => pointer(["components", kind, name]))).filter(
      (component) => !reached.has(component),
    ),
  );
}

/**
 * The document with every local `$ref` replaced by what it points at (recursively; a cycle keeps its `$ref`), boolean
 * schemas in one form, and `additionalProperties: true` dropped (the default). Of the components, only `kept` stay
 * (by default the document's conventions); the others are compared where they are used. With `only`, the paths not in
 * it are left out (on both sides of a comparison, they are the same).
 * @param {Node} document
 * @param {{ only?: ReadonlySet<string>, kept?: ReadonlySet<string> }} [scope]
 */
export function normalizeDescription(document, { only, kept = conventions(document) } = {}) {
  /** @param {unknown} node @param {string[]} stack @returns {any} */
  const inline = (node, stack) => {
    if (Array.isArray(node)) return node.map((item) => inline(item, stack));
    if (node === null || typeof node !== "object") return node;
    const object = /** @type {Node} */ (node);
    if (typeof object.$ref === "string" && object.$ref.startsWith("#/")) {
      if (stack.includes(object.$ref)) return object;
      const target = resolve(document, object.$ref);
      const { $ref: _, ...siblings } = object;
      return inline({ ...target, ...siblings }, [...stack, object.$ref]);
    }
    /** @type {Node} */
    const out = {};
    for (const [key, value] of Object.entries(object)) {
      if (key === "additionalProperties" && value === true) continue;
      let child = value;
      if (SCHEMA_KEYS.has(key) || key === "additionalProperties") child = schemaForm(value);
      else if (SCHEMA_MAPS.has(key) && value && typeof value === "object" && !Array.isArray(value))
        child = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, schemaForm(schema)]));
      else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) child = value.map(schemaForm);
      out[key] = inline(child, stack);
    }
    return out;
  };
  /** @type {Node} */
  const components = { ...document.components };
  for (const kind of KINDS) {
    if (!components[kind]) continue;
    const stay = Object.entries(components[kind]).filter(([name]) => kept.has(pointer(["components", kind, name])));
    if (stay.length > 0) components[kind] = Object.fromEntries(stay);
    else delete components[kind];
  }
  const paths = Object.entries(document.paths ?? {}).filter(([path]) => !only || only.has(path));
  return inline({ ...document, paths: Object.fromEntries(paths), ...(document.components && { components }) }, []);
}
