import type { ValidationError } from "./core.js";

/** An ajv error as the generated validators report it: `verbose` on (`data`, `schema`, `parentSchema`), no `message`. */
export interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  data: unknown;
  schema: unknown;
  parentSchema: Record<string, unknown>;
}

const kinds: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  null: "null",
};
const comparisons: Record<string, string> = { ">=": "at least", "<=": "at most", ">": "greater than", "<": "less than" };
const formats: Record<string, string> = { uri: "an absolute URI", "date-time": "an RFC 3339 date-time" };

function kindOf(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number" && Number.isInteger(value)) return "an integer";
  return kinds[typeof value] ?? typeof value;
}

const or = (items: string[]) => (items.length > 1 ? `${items.slice(0, -1).join(", ")} or ${items.at(-1)}` : (items[0] ?? ""));
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;
const token = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));
const decodeKey = (part: string) => part.replaceAll("~1", "/").replaceAll("~0", "~");
const encodeKey = (key: string) => key.replaceAll("~", "~0").replaceAll("/", "~1");

/** `/data/posts/3/id` → `` `data.posts[3].id` ``, looking at the body to tell array indices from keys. */
function field(pointer: string, body: unknown): string {
  if (pointer === "") return "The body";
  let node = body;
  let name = "";
  for (const key of pointer.slice(1).split("/").map(decodeKey)) {
    name += Array.isArray(node) ? `[${key}]` : name ? `.${key}` : key;
    node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
  }
  return `\`${name}\``;
}

/** A schema that no value matches: `false`, or `{ not: {} }` (the form the descriptions use, which every tool can walk). */
const forbids = (schema: unknown) =>
  schema === false ||
  (typeof schema === "object" && schema !== null && Object.keys(schema).length === 1 && JSON.stringify((schema as { not?: unknown }).not) === "{}");

/**
 * The property a `oneOf`/`anyOf` branch requires when that is all the branch says, besides which properties may not be
 * present: `{ required: [handle] }` or `{ required: [handle], properties: { unique_id: { not: {} } } }`.
 */
function requiredOnly(branch: unknown): string | undefined {
  const { required, properties = {}, ...rest } = (branch ?? {}) as { required?: unknown; properties?: object };
  const presenceOnly = Object.values(properties).every((schema) => schema === true || forbids(schema));
  return Array.isArray(required) && required.length === 1 && presenceOnly && Object.keys(rest).length === 0 ? String(required[0]) : undefined;
}

function describe(error: AjvError, body: unknown): ValidationError {
  const { keyword, params, instancePath } = error;
  // `required` and `additionalProperties` (and their kin) point at the property itself, present or not.
  const property = params.missingProperty ?? params.additionalProperty ?? params.unevaluatedProperty;
  const path = property === undefined ? instancePath : `${instancePath}/${encodeKey(String(property))}`;
  const subject = field(path, body);
  const limit = Number(params.limit);
  const at = keyword.startsWith("min") ? "at least" : "at most";
  let message: string;
  switch (keyword) {
    case "type":
      message = `${subject} must be ${or(String(params.type).split(",").map((type) => kinds[type] ?? type))} (got ${kindOf(error.data)})`;
      break;
    case "required":
    case "dependentRequired":
      message = `${subject} is required`;
      break;
    case "additionalProperties":
    case "unevaluatedProperties":
      message = `${subject} is not allowed here (unknown field)`;
      break;
    case "false schema":
      message = `${subject} must not be present`;
      break;
    case "not":
      message = forbids(error.parentSchema) ? `${subject} must not be present` : `${subject} must not match the excluded shape`;
      break;
    case "enum":
      message = `${subject} must be one of ${(params.allowedValues as unknown[]).map(token).join(", ")}`;
      break;
    case "const":
      message = `${subject} must be ${token(params.allowedValue)}`;
      break;
    case "pattern":
      message = `${subject} must match the pattern ${String(params.pattern)}`;
      break;
    case "format":
      message = `${subject} must be ${formats[String(params.format)] ?? `a valid ${String(params.format)}`}`;
      break;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      message = `${subject} must be ${comparisons[String(params.comparison)]} ${limit}`;
      break;
    case "minLength":
    case "maxLength":
      message = `${subject} must be ${at} ${plural(limit, "character")} long`;
      break;
    case "minItems":
    case "maxItems":
      message = `${subject} must have ${at} ${plural(limit, "item")}`;
      break;
    case "oneOf":
    case "anyOf": {
      const names = (Array.isArray(error.schema) ? error.schema : []).map(requiredOnly);
      const howMany = keyword === "oneOf" ? "exactly one" : "at least one";
      message =
        names.length > 0 && names.every((name) => name !== undefined)
          ? `${howMany} of ${or(names.map((name) => field(`${instancePath}/${encodeKey(name)}`, body)))} is required`
          : `${subject} must match ${howMany} of the allowed shapes`;
      break;
    }
    default:
      message = `${subject} is invalid (${keyword})`;
  }
  return { path, message, keyword };
}

/** True when `error` comes from inside one of the branches of the failed `oneOf`/`anyOf` `alternative`. */
const inBranchOf = (error: AjvError, alternative: AjvError) =>
  error !== alternative &&
  (error.instancePath === alternative.instancePath || error.instancePath.startsWith(`${alternative.instancePath}/`)) &&
  error.schemaPath.startsWith(`${alternative.schemaPath}/`);

/**
 * ajv's errors as sentences. The noise is collapsed: a failed `oneOf`/`anyOf` is reported once, without the errors of
 * each of its branches, and a constraint that several `allOf` branches repeat is reported once.
 */
export function describeErrors(errors: readonly AjvError[], body: unknown): ValidationError[] {
  const alternatives = errors.filter((error) => error.keyword === "oneOf" || error.keyword === "anyOf");
  const described = new Map<string, ValidationError>();
  for (const error of errors) {
    if (alternatives.some((alternative) => inBranchOf(error, alternative))) continue;
    const result = describe(error, body);
    described.set(`${result.path}\n${result.message}`, result);
  }
  return [...described.values()];
}
