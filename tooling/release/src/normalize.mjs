// What consumers feel, not how the description is written: before two descriptions are compared, both are brought to
// one form, so that a rewrite that changes no request or response (a component renamed or moved, a `$ref` inlined,
// `additionalProperties: true` spelt out, a `false` schema written `not: {}`, a header name's case, the same schema
// repeated across an `allOf`) is no change at all.
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
  return canonical(inline({ ...document, paths: Object.fromEntries(paths), ...(document.components && { components }) }, []));
}

/** Members that only annotate a schema: an `allOf` part made of these and an `allOf` is the same as its parts. */
const ANNOTATIONS = new Set(["description", "title", "examples", "example", "$comment", "deprecated", "readOnly", "writeOnly"]);

/**
 * The inlined document in its canonical form, rebuilt bottom up:
 * - header names in lower case (RFC 9110 §5.1: case-insensitive): a response's headers, a header parameter's name and an
 *   API key sent in a header;
 * - parameters in one order (by place, then name): their order means nothing, and the differ names a parameter by its
 *   index on one side and its name on the other;
 * - every `allOf` with its nested `allOf`s flattened, each part once, and each property's schemas gathered in one place.
 *   The same schema reached through several `allOf` parts (a shared component that narrowing schemas repeat) is then
 *   compared once: the differ would otherwise merge every copy, and the copies of a `oneOf` multiply.
 * @param {unknown} node
 * @param {string} [key] the member `node` is the value of
 * @returns {any}
 */
function canonical(node, key) {
  if (Array.isArray(node)) return node.map((item) => canonical(item));
  if (node === null || typeof node !== "object") return node;
  /** @type {Node} */
  const out = {};
  for (const [name, value] of Object.entries(node)) out[key === "headers" ? name.toLowerCase() : name] = canonical(value, name);
  if (typeof out.name === "string" && out.in === "header") out.name = out.name.toLowerCase();
  if (Array.isArray(out.allOf)) out.allOf = gatheredAllOf(out.allOf);
  if (key !== "properties" && Array.isArray(out.parameters)) out.parameters = out.parameters.toSorted((a, b) => (parameterKey(a) < parameterKey(b) ? -1 : parameterKey(a) > parameterKey(b) ? 1 : 0));
  return out;
}

/**
 * The parts of an `allOf`, its nested pure `allOf`s spliced in, each distinct part once, and what several parts say of
 * the same instance location said in the first of them: a property's schemas (`properties` applies to each property on
 * its own) and an array's item schemas, gathered as one `allOf` of the distinct ones, itself gathered the same way. The
 * same instances pass.
 * @param {unknown[]} parts
 * @returns {unknown[]}
 */
function gatheredAllOf(parts) {
  /** @type {unknown[]} */
  const flat = [];
  const add = (/** @type {unknown} */ part) => {
    const nested = isPlainObject(part) && Array.isArray(/** @type {Node} */ (part).allOf) ? /** @type {Node} */ (part) : undefined;
    if (nested && Object.keys(nested).every((name) => name === "allOf" || ANNOTATIONS.has(name) || name.startsWith("x-"))) {
      const { allOf, ...notes } = nested;
      if (Object.keys(notes).length > 0) add(notes);
      for (const inner of allOf) add(inner);
    } else if (!flat.some((seen) => isDeepStrictEqual(seen, part))) flat.push(part);
  };
  for (const part of parts) add(part);
  /** @type {Map<Node, Map<string, unknown[]>>} for each object that keeps a location, the schemas gathered there */
  const gathered = new Map();
  /** @type {Map<string, Node>} each location (`properties/<name>`, `items`) and the object that keeps it */
  const homes = new Map();
  const gather = (/** @type {string} */ location, /** @type {Node} */ owner, /** @type {string} */ key, /** @type {unknown} */ schema) => {
    const home = homes.get(location);
    if (!home) {
      owner[key] = schema;
      homes.set(location, owner);
      gathered.set(owner, (gathered.get(owner) ?? new Map()).set(key, [schema]));
    } else gathered.get(home)?.get(key)?.push(schema);
  };
  const result = flat.map((part) => {
    if (!isPlainObject(part)) return part;
    const { properties, items, ...rest } = /** @type {Node} */ (part);
    /** @type {Node} */
    const out = rest;
    if (isPlainObject(properties)) {
      /** @type {Node} */
      const own = {};
      for (const [name, schema] of Object.entries(properties)) gather(`properties/${name}`, own, name, schema);
      out.properties = own;
    } else if (properties !== undefined) out.properties = properties;
    if (isPlainObject(items)) gather("items", out, "items", items);
    else if (items !== undefined) out.items = items;
    return out;
  });
  for (const [owner, keys] of gathered) {
    for (const [key, schemas] of keys) {
      if (schemas.length < 2) continue;
      const merged = gatheredAllOf(schemas);
      owner[key] = merged.length === 1 ? merged[0] : { allOf: merged };
    }
  }
  return result;
}

/** @param {unknown} parameter */
const parameterKey = (parameter) => (isPlainObject(parameter) ? `${/** @type {Node} */ (parameter).in}\u0000${/** @type {Node} */ (parameter).name}` : "");

const isPlainObject = (/** @type {unknown} */ value) => value !== null && typeof value === "object" && !Array.isArray(value);
