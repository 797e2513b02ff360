import { describe, expect, it } from "vitest";
import {
  type Api,
  apis,
  deref,
  type Header,
  type MediaType,
  operations,
  type Parameter,
  type Response,
  schemaValidator,
} from "./load.js";

// Every example each description carries, paired with the schema it illustrates.

type Case = { where: string; schema: unknown; value: unknown };

function casesOf(api: Api) {
  const { document, validate } = schemaValidator(api);
  const components = (document.components ?? {}) as Record<string, Record<string, unknown> | undefined>;

  function mediaTypeCases(where: string, content: Record<string, MediaType> | undefined): Case[] {
    return Object.entries(content ?? {}).flatMap(([mediaType, media]) => {
      const named = Object.entries(media.examples ?? {}).map(([name, example]) => ({
        where: `${where} ${mediaType} example ${name}`,
        schema: media.schema,
        value: deref<{ value: unknown }>(document, example as { $ref: string }).value,
      }));
      const single = "example" in media ? [{ where: `${where} ${mediaType} example`, schema: media.schema, value: media.example }] : [];
      return [...named, ...single];
    });
  }

  function headerCases(where: string, headers: Response["headers"]): Case[] {
    return Object.entries(headers ?? {}).flatMap(([name, headerRef]) => {
      const header = deref<Header>(document, headerRef);
      const value = coerce(header.schema, header.example);
      return value === undefined ? [] : [{ where: `${where} header ${name}`, schema: header.schema, value }];
    });
  }

  function responseCases(where: string, ref: unknown): Case[] {
    const response = deref<Response>(document, ref);
    return [...mediaTypeCases(where, response.content), ...headerCases(where, response.headers)];
  }

  function parameterCases(where: string, refs: unknown[]): Case[] {
    return refs.flatMap((ref) => {
      const parameter = deref<Parameter>(document, ref);
      const value = coerce(parameter.schema, parameter.example);
      return value === undefined ? [] : [{ where: `${where} parameter ${parameter.in} ${parameter.name}`, schema: parameter.schema, value }];
    });
  }

  const ops = operations(document);
  const responses: Case[] = [
    ...ops.flatMap(({ operation }) =>
      Object.entries(operation.responses).flatMap(([status, ref]) => responseCases(`${operation.operationId} ${status}`, ref)),
    ),
    // Components no operation reaches (a surface whose operations are not shown still carries its conventions).
    ...Object.entries(components.responses ?? {}).flatMap(([name, ref]) => responseCases(`components/responses/${name}`, ref)),
    ...headerCases("components/headers", components.headers as Response["headers"]),
  ];
  const requests: Case[] = ops.flatMap(({ operation }) =>
    mediaTypeCases(`${operation.operationId} request`, operation.requestBody?.content),
  );
  const parameters: Case[] = [
    ...ops.flatMap(({ operation, pathParameters }) =>
      parameterCases(operation.operationId, [...pathParameters, ...(operation.parameters ?? [])]),
    ),
    ...parameterCases("components/parameters", Object.values(components.parameters ?? {})),
    ...Object.entries((document.paths ?? {}) as Record<string, { parameters?: unknown[] }>).flatMap(([path, item]) =>
      parameterCases(path, item.parameters ?? []),
    ),
  ];

  // `examples` inside component schemas (and their properties) illustrate that very schema.
  const schemas: Case[] = [];
  (function collect(node: unknown, pointer: string) {
    if (!node || typeof node !== "object") return;
    const schema = node as Record<string, unknown>;
    if (Array.isArray(schema.examples)) {
      for (const [index, value] of schema.examples.entries()) {
        schemas.push({ where: `${pointer} examples[${index}]`, schema: { $ref: pointer }, value });
      }
    }
    for (const [key, child] of Object.entries(schema)) {
      if (key !== "examples") collect(child, `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
    }
  })(components.schemas, "#/components/schemas");

  return { document, validate, ops, responses, requests, parameters, schemas };
}

// Header and parameter examples are written as YAML scalars; on the wire they are strings that the schema's type reads back.
function coerce(schema: unknown, example: unknown): unknown {
  const type = (schema as { type?: string } | undefined)?.type;
  return (type === "integer" || type === "number") && typeof example === "string" ? Number(example) : example;
}

const surfaces = Object.fromEntries(apis.map((api) => [api, casesOf(api)])) as Record<Api, ReturnType<typeof casesOf>>;

describe("the scraper description's examples", () => {
  it("cover every documented response, request body and schema example", () => {
    const { responses, requests, schemas } = surfaces.scraper;
    expect(responses.length).toBeGreaterThan(30 * 10);
    expect(requests).toHaveLength(30);
    expect(schemas.length).toBeGreaterThan(10);
  });
});

describe("the neighbouring surfaces' examples", () => {
  it("cover their responses, request bodies, parameters and schema examples", () => {
    expect(surfaces.platform.responses.length).toBeGreaterThan(13 * 5);
    expect(surfaces.platform.requests).toHaveLength(12);
    expect(surfaces.platform.parameters.length).toBeGreaterThan(20);
    expect(surfaces.platform.schemas.length).toBeGreaterThan(3);
    expect(surfaces["platform-legacy"].responses.length).toBeGreaterThan(6);
    expect(surfaces["platform-legacy"].parameters.length).toBeGreaterThan(3);
    expect(surfaces["platform-legacy"].schemas.length).toBeGreaterThan(1);
    // Connect has no operations: its 429 and Retry-After are components.
    expect(surfaces.connect.responses.length).toBeGreaterThan(0);
  });
});

describe.each(apis)("every example in the %s description validates against its schema", (api) => {
  const { document, validate, ops, responses, requests, parameters, schemas } = surfaces[api];
  const cases = [...responses, ...requests, ...parameters, ...schemas];

  it.each(cases.map((c) => [c.where, c] as const))("%s", (_where, c) => {
    const result = validate(c.schema, c.value);
    expect(result.errors).toBe("No errors");
    expect(result.valid).toBe(true);
  });

  it("gives every documented response and request body of every operation at least one example per media type", () => {
    for (const { operation } of ops) {
      const bodies: Array<[string, Record<string, MediaType> | undefined]> = [
        ...Object.entries(operation.responses).map(([status, ref]) => [status, deref<Response>(document, ref).content] as [string, Record<string, MediaType> | undefined]),
        ["request", operation.requestBody?.content],
      ];
      for (const [where, content] of bodies) {
        for (const [mediaType, media] of Object.entries(content ?? {})) {
          const count = Object.keys(media.examples ?? {}).length + ("example" in media ? 1 : 0);
          expect(count, `${operation.operationId} ${where} ${mediaType}`).toBeGreaterThan(0);
        }
      }
    }
  });
});
