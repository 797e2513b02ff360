import { describe, expect, it } from "vitest";
import { annotationKeywords, createOpenApiAjv, rebaseRefs } from "../src/openapi-json-schema.js";

const document = {
  components: {
    schemas: {
      Name: { type: "string", pattern: "^[a-z]+$", example: "abc", "x-not-shown": "nothing" },
      Box: { type: "object", required: ["name"], properties: { name: { $ref: "#/components/schemas/Name" } }, additionalProperties: false },
    },
  },
};

describe("OpenAPI schemas under ajv", () => {
  it("finds the annotation keywords to declare", () => {
    expect(annotationKeywords(document)).toEqual(["example", "x-not-shown"]);
  });

  it("rebases component refs onto the schema resource", () => {
    expect(rebaseRefs({ items: { $ref: "#/components/schemas/Box" } }, "https://api.test/api.json")).toEqual({ items: { $ref: "https://api.test/api.json#/$defs/Box" } });
  });

  it("compiles in strict mode and validates through refs", () => {
    const ajv = createOpenApiAjv(document, "https://api.test/api.json");
    const validate = ajv.compile({ $ref: "https://api.test/api.json#/$defs/Box" });
    expect(validate({ name: "abc" })).toBe(true);
    expect(validate({ name: "ABC" })).toBe(false);
    expect(validate({ name: "abc", extra: 1 })).toBe(false);
  });

  it("still rejects unknown keywords that are not annotations", () => {
    const ajv = createOpenApiAjv(document, "https://api.test/api.json");
    expect(() => ajv.compile({ type: "string", exampel: "typo" })).toThrow(/unknown keyword/);
  });
});
