import { describe, expect, it } from "vitest";
import * as platform from "../src/platform.js";
import * as platformLegacy from "../src/platform-legacy.js";
import type { BodyOptions, ValidationResult } from "../src/core.js";
import * as scraper from "../src/scraper.js";
import { allExamples, type Example, examplesOf, type Schema } from "./support.js";

// Every example of the description validates, and breaking it in one place fails at that very place. The mutations are
// derived from the example and its (dereferenced) schema, never written by hand.

// Any surface's validators, called with the operationIds its own examples name.
type Surface = {
  validateRequest(operationId: never, body: unknown, options?: BodyOptions): ValidationResult;
  validateResponse(operationId: never, status: string, body: unknown, options?: BodyOptions): ValidationResult;
};
const validateWith = (surface: Surface) => (example: Example, value: unknown) =>
  example.status === undefined
    ? surface.validateRequest(example.operationId as never, value, { contentType: example.mediaType })
    : surface.validateResponse(example.operationId as never, example.status, value, { contentType: example.mediaType });

type Node = { [keyword: string]: unknown };
type Mutation = { what: string; path: string; keyword: string; value: unknown };

/** The schemas that apply at one place: the schema and, recursively, its `allOf` members. */
const applying = (schema: Schema | undefined): Node[] =>
  typeof schema === "object" ? [schema, ...((schema.allOf as Schema[] | undefined) ?? []).flatMap(applying)] : [];

const encodeKey = (key: string) => key.replaceAll("~", "~0").replaceAll("/", "~1");
const jsonType = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);
// A value of a type none of `types` allows (an integer slot takes 1.5 as a wrong type, a number slot does not).
const wrongValue = (types: string[]) => [1.5, "text", true, {}].find((candidate) => !types.includes(jsonType(candidate)));

/** Copy of `root` with the value at `path` (a list of keys) replaced, or deleted when `value` is `undefined`. */
function mutate(root: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone(root);
  if (path.length === 0) return value;
  const parent = path.slice(0, -1).reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, copy as Record<string, unknown>);
  const key = path.at(-1) as string;
  if (value === undefined) delete parent[key];
  else parent[key] = value;
  return copy;
}

/** One wrong type per typed leaf, and per object: each required key removed, an unknown or a forbidden key added. */
function mutations(root: unknown, value: unknown, schemas: Node[], path: string[] = []): Mutation[] {
  const pointer = path.map((key) => `/${encodeKey(key)}`).join("");
  const at = (key: string) => `${pointer}/${encodeKey(key)}`;
  const found: Mutation[] = [];
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    const required = new Set(schemas.flatMap((schema) => (schema.required as string[] | undefined) ?? []));
    for (const key of required) {
      if (key in object) found.push({ what: `without ${key}`, path: at(key), keyword: "required", value: mutate(root, [...path, key], undefined) });
    }
    if (schemas.some((schema) => schema.additionalProperties === false)) {
      found.push({ what: "with an unknown field", path: at("unexpected_field"), keyword: "additionalProperties", value: mutate(root, [...path, "unexpected_field"], 1) });
    }
    for (const schema of schemas) {
      for (const [key, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
        // `{ not: {} }`: the descriptions' form of "never present".
        if (JSON.stringify(property) === '{"not":{}}' && !(key in object)) {
          found.push({ what: `with the forbidden ${key}`, path: at(key), keyword: "not", value: mutate(root, [...path, key], null) });
        }
      }
    }
    for (const [key, child] of Object.entries(object)) {
      const childSchemas = schemas.flatMap((schema) => applying((schema.properties as Record<string, Schema> | undefined)?.[key]));
      found.push(...mutations(root, child, childSchemas, [...path, key]));
    }
    return found;
  }
  if (Array.isArray(value)) {
    // The first item stands for the others: they share their schema.
    const itemSchemas = schemas.flatMap((schema) => applying(schema.items as Schema | undefined));
    return value.length > 0 ? mutations(root, value[0], itemSchemas, [...path, "0"]) : [];
  }
  const typed = schemas.find((schema) => schema.type !== undefined);
  if (typed) {
    const wrong = wrongValue([typed.type].flat() as string[]);
    found.push({ what: `${pointer || "the body"} of a wrong type`, path: pointer, keyword: "type", value: mutate(root, path, wrong) });
  }
  for (const schema of schemas) {
    if (Array.isArray(schema.enum)) found.push({ what: `${pointer} an unknown token`, path: pointer, keyword: "enum", value: mutate(root, path, "UNKNOWN_TOKEN") });
    if ("const" in schema) found.push({ what: `${pointer} another token`, path: pointer, keyword: "const", value: mutate(root, path, "UNKNOWN_TOKEN") });
  }
  return found;
}

const casesOf = (examples: Example[]) => examples.map((example) => ({ example, mutations: mutations(example.value, example.value, applying(example.schema)) }));
const cases = casesOf(allExamples);

/** The example validates, and each mutation fails at the very place it was made, with a message naming the field. */
function checkExample(validate: ReturnType<typeof validateWith>, example: Example, found: Mutation[]) {
  expect(validate(example, example.value)).toEqual({ valid: true });
  for (const mutation of found) {
    const result = validate(example, mutation.value);
    expect(result.valid, mutation.what).toBe(false);
    const errors = result.valid ? [] : result.errors;
    const error = errors.find((candidate) => candidate.path === mutation.path && candidate.keyword === mutation.keyword);
    expect(error, `${mutation.what}: ${JSON.stringify(errors)}`).toBeDefined();
    // The message names the field it is about (its last key; the body itself at the root).
    const last = mutation.path.split("/").at(-1)?.replaceAll("~1", "/").replaceAll("~0", "~");
    expect(error?.message).toContain(last || "The body");
  }
}

describe("every example of the scraper description", () => {
  it("covers every request and response example, and every kind of mutation", () => {
    expect(allExamples.filter((example) => example.status === undefined).length).toBeGreaterThanOrEqual(30);
    expect(allExamples.filter((example) => example.status !== undefined).length).toBeGreaterThan(30 * 10);
    const kinds = new Set(cases.flatMap((c) => c.mutations.map((mutation) => mutation.keyword)));
    expect([...kinds].sort()).toEqual(["additionalProperties", "const", "enum", "not", "required", "type"]);
  });

  it.each(cases.map((c) => [c.example.name, c] as const))("%s validates, and each mutation fails where it was made", (_name, { example, mutations }) => {
    checkExample(validateWith(scraper), example, mutations);
  });
});

describe.each([
  ["platform", platform],
  ["platform-legacy", platformLegacy],
] as const)("every example of the %s description", (api, surface) => {
  const surfaceCases = casesOf(examplesOf(api));
  it("has examples", () => expect(surfaceCases.length).toBeGreaterThan(0));
  it.each(surfaceCases.map((c) => [c.example.name, c] as const))("%s validates, and each mutation fails where it was made", (_name, { example, mutations }) => {
    checkExample(validateWith(surface), example, mutations);
  });
});
