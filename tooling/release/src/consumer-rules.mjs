// Rules on top of api-smart-diff's classification, for the classes of change it gets wrong for the consumers of a
// description (generated clients and the people who code against them). Each rule names the change it judges and
// overrides the differ's verdict on it; every other change keeps the differ's verdict. The seeded edits in
// test/seeded-edits hold every rule to its class.
import { patternWidens } from "./pattern-widening.mjs";

/** @typedef {import("api-smart-diff").Diff} Diff */
/** @typedef {"breaking" | "non-breaking" | "annotation"} Verdict */
/** @typedef {"request" | "response" | "both" | undefined} Side a convention schema no operation uses may be either */
/** @typedef {{ side: Side, merged: unknown, diffs: Diff[] }} Context where a change stands, api-smart-diff's merged document, and every change */
/** @typedef {{ name: string, judge: (diff: Diff, context: Context) => Verdict | undefined }} Rule */

const ANY = null;

/**
 * What a diff's location is read by: the request a client sends or the response it reads.
 * @param {Diff["path"]} path
 * @returns {Side}
 */
const sideOf = (path) => {
  if (path[0] === "paths") {
    if (path[3] === "responses") return "response";
    if (path[3] === "requestBody" || path[3] === "parameters" || path[2] === "parameters") return "request";
  }
  if (path[0] === "components") {
    if (path[1] === "responses" || path[1] === "headers") return "response";
    if (path[1] === "parameters" || path[1] === "requestBodies") return "request";
    if (path[1] === "schemas") return "both";
  }
  return undefined;
};

/**
 * The values a member of a schema (`type`, `enum`, `const`) allows before and after, as lists (`ANY` where it is absent),
 * from its value in api-smart-diff's merged document and the changes to it: the merged document does not reliably keep
 * what was removed or note what changed, but each change carries its own before and after.
 * @param {any} node the schema in the merged document
 * @param {string} key
 * @param {Diff[]} changes the changes under `node[key]`
 * @returns {[unknown[] | null, unknown[] | null]}
 */
function sides(node, key, changes) {
  const list = (/** @type {unknown} */ v) => (v === undefined ? ANY : Array.isArray(v) ? v : [v]);
  const whole = changes.find((c) => typeof c.path.at(-1) !== "number");
  if (whole) return [list(whole.before), list(whole.after)];
  if (changes.length === 0) return [list(node?.[key]), list(node?.[key])];
  // Item changes of a list (an enum, a list of types): a set, so compare values, not positions.
  const has = (/** @type {unknown[]} */ values, /** @type {unknown} */ x) => values.some((v) => JSON.stringify(v) === JSON.stringify(x));
  const added = changes.flatMap((c) => (c.action === "remove" ? [] : [c.after]));
  const removed = changes.flatMap((c) => (c.action === "add" ? [] : [c.before]));
  const current = list(node?.[key]) ?? [];
  const before = [...current.filter((v) => !has(added, v) || has(removed, v)), ...removed.filter((v) => !has(current, v))];
  const after = [...current.filter((v) => !has(removed, v) || has(added, v)), ...added.filter((v) => !has(current, v))];
  // An enum or a list of types is never empty: one whose every item was added did not exist before.
  return [before.length > 0 ? before : ANY, after.length > 0 ? after : ANY];
}

/** Whether every value of `a` is in `b` (`ANY` is every value; an integer is a number). */
function within(/** @type {unknown[] | null} */ a, /** @type {unknown[] | null} */ b) {
  if (b === ANY) return true;
  if (a === ANY) return false;
  return a.every((x) => b.some((y) => JSON.stringify(x) === JSON.stringify(y) || (x === "integer" && y === "number")));
}

/**
 * A schema's allowed types or values changed: a request that accepted a value must still accept it, and a response must
 * not send a value it could not send before. api-smart-diff judges each `enum` item and each `type` on its own, so it calls
 * a new enum on a request field a widening, and a changed response type or constant harmless.
 * @type {Rule}
 */
const allowedValues = {
  name: "allowed values",
  judge(diff, { side, merged, diffs }) {
    const at = valueKeyAt(diff.path);
    if (!side || at < 0) return undefined;
    const node = diff.path.slice(0, at).reduce((/** @type {any} */ n, key) => n?.[key], merged);
    const prefix = JSON.stringify(diff.path.slice(0, at));
    /** @param {string} key */
    const of = (key) => sides(node, key, diffs.filter((c) => valueKeyAt(c.path) === at && c.path[at] === key && JSON.stringify(c.path.slice(0, at)) === prefix));
    const [typesBefore, typesAfter] = of("type");
    const [[enumBefore, enumAfter], [constBefore, constAfter]] = [of("enum"), of("const")];
    const [valuesBefore, valuesAfter] = [enumBefore ?? constBefore, enumAfter ?? constAfter];
    const accepts = within(typesBefore, typesAfter) && within(valuesBefore, valuesAfter); // every value allowed before still is
    const promises = within(typesAfter, typesBefore) && within(valuesAfter, valuesBefore); // no value is allowed that was not
    const keeps = side === "request" ? accepts : side === "response" ? promises : accepts && promises;
    return keeps ? "non-breaking" : "breaking";
  },
};

/** Where `type`, `enum` or `const` of a schema stands in a change's path (the last or next to last key), else -1. */
function valueKeyAt(/** @type {Diff["path"]} */ path) {
  const at = path.length - (typeof path.at(-1) === "number" ? 2 : 1);
  const key = path[at];
  return at > 0 && (key === "type" || key === "enum" || key === "const") && path[at - 1] !== "properties" ? at : -1;
}

const UPPER = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"]);
const LOWER = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"]);

/**
 * A bound moved: a request must still accept what it did (an upper bound may not fall, a lower one may not rise), and a
 * response may not send what it could not (the reverse). A convention no operation uses may be read either way.
 * @type {Rule}
 */
const bounds = {
  name: "bounds",
  judge(diff, { side }) {
    const key = String(diff.path.at(-1));
    if (!side || !(UPPER.has(key) || LOWER.has(key)) || diff.path.at(-2) === "properties") return undefined;
    const [was, is] = [diff.before ?? (UPPER.has(key) ? Infinity : -Infinity), diff.after ?? (UPPER.has(key) ? Infinity : -Infinity)];
    const widens = UPPER.has(key) ? is >= was : is <= was;
    const narrows = UPPER.has(key) ? is <= was : is >= was;
    const keeps = side === "request" ? widens : side === "response" ? narrows : widens && narrows;
    return keeps ? "non-breaking" : "breaking";
  },
};

/**
 * A `pattern` changed: a request must still accept what it did (the new pattern proven to accept every string the old
 * one did: pattern-widening.mjs), and a response may not send what it could not (the old proven to accept every string
 * the new one does). What is not proven is breaking. api-smart-diff calls every changed pattern in a request breaking,
 * a wider one too, and every changed pattern in a response harmless, a wider one too.
 * @type {Rule}
 */
const pattern = {
  name: "pattern",
  judge(diff, { side }) {
    if (!side || diff.action !== "replace" || diff.path.at(-1) !== "pattern" || diff.path.at(-2) === "properties") return undefined;
    const accepts = patternWidens(diff.before, diff.after); // every value accepted before still is
    const promises = patternWidens(diff.after, diff.before); // no value is allowed that was not
    const keeps = side === "request" ? accepts : side === "response" ? promises : accepts && promises;
    return keeps ? "non-breaking" : "breaking";
  },
};

/** A request default changed or went away: a call that leaves the field out now asks for something else. @type {Rule} */
const requestDefault = {
  name: "request default",
  judge: (diff, { side }) =>
    (side === "request" || side === "both") && diff.path.at(-1) === "default" && diff.path.at(-2) !== "properties" && diff.action !== "add"
      ? "breaking"
      : undefined,
};

/**
 * A parameter now has another name or place, or becomes required: a call that sent it as before is refused. (In an
 * operation api-smart-diff sees a renamed parameter as one removed and one added; a convention's it leaves unclassified.)
 * @type {Rule}
 */
const parameter = {
  name: "parameter",
  judge(diff, { side }) {
    const [key, at] = [diff.path.at(-1), diff.path.at(-3)];
    if (side !== "request" || !(at === "parameters" || (diff.path[0] === "components" && diff.path.length === 4))) return undefined;
    if (key === "name" || key === "in") return "breaking";
    if (key === "required") return diff.after === true && diff.before !== true ? "breaking" : undefined;
    return undefined;
  },
};

/**
 * A convention no operation uses (a component the root lists: legacy pages, consent errors, the connect 429) is no longer
 * stated: clients that follow it are left without it. api-smart-diff leaves most of these unclassified.
 * @type {Rule}
 */
const removedConvention = {
  name: "removed convention",
  judge: (diff) => (diff.path[0] === "components" && diff.path.length === 3 && diff.path[1] !== "examples" && diff.action === "remove" ? "breaking" : undefined),
};

/**
 * A documented field leaves a response: a client that reads it gets nothing (and its generated type loses it), required
 * or not. A field leaves a request: a client that sends it no longer type-checks, or is refused where unknown fields are.
 * A `not: {}` field was forbidden, so dropping it from a request only widens it.
 * @type {Rule}
 */
const removedField = {
  name: "removed field",
  judge(diff, { side }) {
    if (!side || diff.action !== "remove" || diff.path.at(-2) !== "properties") return undefined;
    if (side === "request" && JSON.stringify(diff.before) === JSON.stringify({ not: {} })) return undefined;
    return "breaking";
  },
};

/** A request schema that took any field now limits them: a client that sent one is refused. @type {Rule} */
const closedRequest = {
  name: "closed request",
  judge: (diff, { side }) =>
    (side === "request" || side === "both") && diff.path.at(-1) === "additionalProperties" && diff.action !== "remove" ? "breaking" : undefined,
};

/**
 * A response header that was always sent may be missing, or is no longer described: a client that reads it gets nothing.
 * @type {Rule}
 */
const responseHeader = {
  name: "response header",
  judge(diff, { side }) {
    if (side !== "response") return undefined;
    if (diff.path.at(-2) === "headers") return diff.action === "remove" ? "breaking" : undefined;
    if (diff.path.at(-1) !== "required" || diff.path.at(-3) !== "headers") return undefined;
    return diff.before === true && diff.after !== true ? "breaking" : undefined;
  },
};

/** Words and examples for people: what a description, summary, title or example says changes no call. @type {Rule} */
const prose = {
  name: "prose",
  judge(diff) {
    const at = diff.path.findIndex((key, i) => PROSE.has(String(key)) && diff.path[i - 1] !== "properties");
    return at >= 0 && (at === diff.path.length - 1 || diff.path[at] === "examples" || diff.path[at] === "example") ? "annotation" : undefined;
  },
};
const PROSE = new Set(["description", "summary", "title", "example", "examples", "x-not-shown"]);

/** Generated clients name their functions and types after the operationId. @type {Rule} */
const operationId = {
  name: "operationId",
  judge: (diff) => (diff.path.at(-1) === "operationId" && diff.path[0] === "paths" && diff.action !== "add" ? "breaking" : undefined),
};

/**
 * Where requests go: a server's URL (its base path), a variable's default or its values, or a server removed. A client
 * that keeps the description's server sends its calls (and its key) somewhere else. An added server is harmless.
 * @type {Rule}
 */
const server = {
  name: "server",
  judge(diff) {
    const at = diff.path.indexOf("servers");
    if (!(at === 0 || (diff.path[0] === "paths" && (at === 2 || at === 3)))) return undefined;
    const [, part, name, key] = diff.path.slice(at + 1);
    if (part === undefined) return diff.action === "add" ? undefined : "breaking";
    if (part === "url") return "breaking";
    if (part !== "variables") return undefined;
    if (name === undefined || key === undefined) return diff.action === "add" ? undefined : "breaking";
    return key === "default" || key === "enum" ? "breaking" : undefined;
  },
};

/**
 * How a client authorizes: an OAuth flow removed, its authorization, token or refresh URL moved or removed, or a scope it
 * could request removed. A scheme added asks nothing of anyone by itself (what each call requires is judged on the whole
 * description: see security-requirements.mjs).
 * @type {Rule}
 */
const securityScheme = {
  name: "security scheme",
  judge(diff) {
    const [components, schemes, name, flows, , key, scope] = diff.path;
    if (components !== "components" || schemes !== "securitySchemes") return undefined;
    if (flows === undefined) return name !== undefined && diff.action === "add" ? "non-breaking" : undefined;
    if (flows !== "flows") return undefined;
    if (key === undefined || key === "scopes") return diff.action === "remove" || (key === "scopes" && scope === undefined) ? "breaking" : undefined;
    if (key === "authorizationUrl" || key === "tokenUrl" || key === "refreshUrl") return diff.action === "add" ? undefined : "breaking";
    return undefined;
  },
};

/**
 * A `not` added, removed or replaced: a request must still accept what it did (a new `not` refuses more, a dropped one
 * refuses less), and a response may not send what it could not (the reverse). A change inside a `not` reads the other way
 * round, so it is breaking on either side. api-smart-diff calls a `not` dropped from a response an annotation.
 * @type {Rule}
 */
const negation = {
  name: "negation",
  judge(diff, { side }) {
    const at = diff.path.lastIndexOf("not");
    if (!side || at < 1 || diff.path[at - 1] === "properties") return undefined;
    if (at < diff.path.length - 1) return "breaking";
    if (side === "request") return diff.action === "remove" ? "non-breaking" : "breaking";
    if (side === "response") return diff.action === "add" ? "non-breaking" : "breaking";
    return "breaking";
  },
};

/** Every rule, in the order they are asked; the first with a verdict decides. */
export const CONSUMER_RULES = [
  prose,
  negation,
  allowedValues,
  bounds,
  pattern,
  requestDefault,
  parameter,
  removedConvention,
  removedField,
  closedRequest,
  responseHeader,
  operationId,
  server,
  securityScheme,
];

/**
 * The verdict on each api-smart-diff change: the first rule that judges it, else the differ's own.
 * @param {Diff[]} diffs
 * @param {unknown} merged api-smart-diff's merged document of the comparison
 * @returns {{ type: Diff["type"], rule?: string }[]}
 */
export function classify(diffs, merged) {
  return diffs.map((diff) => {
    const context = { side: sideOf(diff.path), merged, diffs };
    for (const rule of CONSUMER_RULES) {
      const verdict = rule.judge(diff, context);
      if (verdict) return { type: verdict, rule: rule.name };
    }
    return { type: diff.type };
  });
}
