// What consumers feel, not how the description is written: before two descriptions are compared, both are brought to
// one form, so that a rewrite that changes no request or response (a component renamed or moved, a `$ref` inlined,
// `additionalProperties: true` spelt out, a `false` schema written `not: {}`) is no change at all.

/** @typedef {Record<string, any>} Node */

const KINDS = ["schemas", "parameters", "responses", "headers", "examples", "requestBodies", "links", "callbacks", "pathItems"];
/** Keys whose value is a schema or a map or list of schemas, where a boolean schema may stand. */
const SCHEMA_KEYS = new Set(["items", "not", "contains", "if", "then", "else", "propertyNames", "additionalItems", "unevaluatedItems"]);
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);
const SCHEMA_LISTS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);

/** `false` is `{ not: {} }` and `true` is `{}`: the same schemas. */
const schemaForm = (/** @type {unknown} */ value) => (value === false ? { not: {} } : value === true ? {} : value);

/**
 * The document with every local `$ref` replaced by what it points at (recursively; a cycle keeps its `$ref`), boolean
 * schemas in one form, and `additionalProperties: true` dropped (the default). Components that an operation reaches are
 * dropped too: they are compared where they are used. Components no operation reaches (a surface's conventions) stay.
 * @param {Node} document
 */
export function normalizeDescription(document) {
  const reached = new Set();
  /** @param {unknown} node @param {string[]} stack @returns {any} */
  const inline = (node, stack, inPaths = false) => {
    if (Array.isArray(node)) return node.map((item) => inline(item, stack, inPaths));
    if (node === null || typeof node !== "object") return node;
    const object = /** @type {Node} */ (node);
    if (typeof object.$ref === "string" && object.$ref.startsWith("#/")) {
      if (stack.includes(object.$ref)) return object;
      if (inPaths) reached.add(object.$ref.split("/").slice(0, 4).join("/"));
      const target = object.$ref
        .slice(2)
        .split("/")
        .reduce((/** @type {any} */ at, part) => at?.[part.replaceAll("~1", "/").replaceAll("~0", "~")], document);
      const { $ref: _, ...siblings } = object;
      return inline({ ...target, ...siblings }, [...stack, object.$ref], inPaths);
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
      out[key] = inline(child, stack, inPaths || key === "paths");
    }
    return out;
  };
  const normalized = inline(document, []);
  for (const kind of KINDS) {
    const map = normalized.components?.[kind];
    if (!map) continue;
    for (const name of Object.keys(map)) if (reached.has(`#/components/${kind}/${name}`)) delete map[name];
    if (Object.keys(map).length === 0) delete normalized.components[kind];
  }
  return normalized;
}
