import { describe, expect, it } from "vitest";
import { generateValidators, validatorAjv } from "./index.js";

const errorBody = { allOf: [{ $ref: "#/components/schemas/Error" }, { properties: { code: { const: "NOT_FOUND" } } }] };
const document = {
  openapi: "3.1.0",
  paths: {
    "/things": {
      post: {
        operationId: "createThing",
        requestBody: { $ref: "#/components/requestBodies/Thing" },
        responses: {
          "201": { description: "made", content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } },
          "404": { $ref: "#/components/responses/NotFound" },
          "5XX": { description: "failed", content: { "text/plain": { schema: { type: "string" } } } },
        },
      },
      get: {
        operationId: "listThings",
        responses: { "404": { $ref: "#/components/responses/NotFound" }, default: { description: "any" } },
      },
    },
  },
  components: {
    requestBodies: { Thing: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } } },
    responses: { NotFound: { description: "gone", content: { "application/json": { schema: errorBody } } } },
    schemas: {
      Thing: { type: "object", required: ["name"], properties: { name: { type: "string", minLength: 1, "x-not-shown": "the limit" } }, example: { name: "a" } },
      Error: { type: "object", required: ["code"], properties: { code: { type: "string" }, at: { type: "string", format: "date-time" } } },
    },
  },
};

describe("the validator modules", () => {
  it("names each body's validator after its component, or where an inline schema is written", () => {
    const { exports, table } = validatorAjv(document, "things");
    expect(exports).toEqual({
      Thing: "https://content-scraper.test/things.json#/$defs/Thing",
      NotFound_application_json: "https://content-scraper.test/things.json#/$defs/NotFound_application_json",
      createThing_5XX_text_plain: "https://content-scraper.test/things.json#/$defs/createThing_5XX_text_plain",
    });
    expect(table).toEqual({
      createThing: {
        request: { required: true, content: { "application/json": "Thing" } },
        responses: { "201": { "application/json": "Thing" }, "404": { "application/json": "NotFound_application_json" }, "5XX": { "text/plain": "createThing_5XX_text_plain" } },
      },
      listThings: { request: undefined, responses: { "404": { "application/json": "NotFound_application_json" }, default: {} } },
    });
  });

  it("compiles them against the component schemas, annotations declared and strict mode on", () => {
    const { ajv, exports } = validatorAjv(document, "things");
    const notFound = ajv.getSchema(exports.NotFound_application_json ?? "");
    expect(notFound?.({ code: "NOT_FOUND" })).toBe(true);
    expect(notFound?.({ code: "GONE" })).toBe(false);
    expect(() => validatorAjv({ ...document, components: { ...document.components, schemas: { Thing: { typo: 1 } } } }, "things").ajv.getSchema(exports.Thing ?? "")).toThrow(
      /unknown keyword: "typo"/,
    );
  });

  it("refuses an inline schema whose name a component schema already has", () => {
    const taken = { ...document, components: { ...document.components, schemas: { ...document.components.schemas, NotFound_application_json: {} } } };
    expect(() => validatorAjv(taken, "things")).toThrow("the body schema of NotFound application/json cannot be exported as NotFound_application_json: the name is taken");
  });

  it("writes an ES module that imports ajv's helpers, with declarations for each export", () => {
    const { ".js": js, ".d.ts": dts } = generateValidators(document, "things");
    expect(js).not.toMatch(/require\(|"use strict"/);
    expect(js).toContain('import * as ajv_dist_runtime_ucs2length_module from "ajv/dist/runtime/ucs2length.js";');
    expect(js).toContain('import * as ajv_formats_dist_formats_module from "ajv-formats/dist/formats.js";');
    expect(js).toMatch(/export const Thing = validate\d+;/);
    expect(js).toContain(`export const table = ${JSON.stringify(validatorAjv(document, "things").table)};`);
    expect(dts).toContain("export declare const NotFound_application_json: Validator;\nexport declare const Thing: Validator;\nexport declare const createThing_5XX_text_plain: Validator;\n");
    expect(generateValidators(document, "things")).toEqual({ ".js": js, ".d.ts": dts });
  });
});
