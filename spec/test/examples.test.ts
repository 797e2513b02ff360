import { describe, expect, it } from "vitest";
import { type Header, type MediaType, operations, type Response, deref, schemaValidator } from "./load.js";

// Every example the description carries, paired with the schema it illustrates.
const { document, validate } = schemaValidator("scraper");

type Case = { where: string; schema: unknown; value: unknown };

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

const responseCases: Case[] = operations(document).flatMap(({ operation }) =>
  Object.entries(operation.responses).flatMap(([status, ref]) => {
    const response = deref<Response>(document, ref);
    const where = `${operation.operationId} ${status}`;
    const headers = Object.entries(response.headers ?? {}).map(([name, headerRef]) => {
      const header = deref<Header>(document, headerRef);
      return { where: `${where} header ${name}`, schema: header.schema, value: coerceHeader(header) };
    });
    return [...mediaTypeCases(where, response.content), ...headers.filter((c) => c.value !== undefined)];
  }),
);

const requestCases: Case[] = operations(document).flatMap(({ operation }) =>
  mediaTypeCases(`${operation.operationId} request`, operation.requestBody?.content),
);

// `examples` inside component schemas (and their properties) illustrate that very schema.
const schemaCases: Case[] = [];
(function collect(node: unknown, pointer: string) {
  if (!node || typeof node !== "object") return;
  const schema = node as Record<string, unknown>;
  if (Array.isArray(schema.examples)) {
    for (const [index, value] of schema.examples.entries()) {
      schemaCases.push({ where: `${pointer} examples[${index}]`, schema: { $ref: pointer }, value });
    }
  }
  for (const [key, child] of Object.entries(schema)) {
    if (key !== "examples") collect(child, `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
  }
})((document.components as Record<string, unknown>).schemas, "#/components/schemas");

// Header examples are written as YAML scalars; on the wire they are strings that the schema's type reads back.
function coerceHeader(header: Header): unknown {
  const type = (header.schema as { type?: string }).type;
  return type === "integer" && typeof header.example === "string" ? Number(header.example) : header.example;
}

describe("every example in the scraper description validates against its schema", () => {
  it("covers every documented response, request body and schema example", () => {
    expect(responseCases.length).toBeGreaterThan(30 * 10);
    expect(requestCases).toHaveLength(30);
    expect(schemaCases.length).toBeGreaterThan(10);
  });

  it.each([...responseCases, ...requestCases, ...schemaCases].map((c) => [c.where, c] as const))("%s", (_where, c) => {
    const result = validate(c.schema, c.value);
    expect(result.errors).toBe("No errors");
    expect(result.valid).toBe(true);
  });

  it("gives every documented response of every operation at least one example", () => {
    for (const { operation } of operations(document)) {
      for (const [status, ref] of Object.entries(operation.responses)) {
        for (const [mediaType, media] of Object.entries(deref<Response>(document, ref).content ?? {})) {
          const count = Object.keys(media.examples ?? {}).length + ("example" in media ? 1 : 0);
          expect(count, `${operation.operationId} ${status} ${mediaType}`).toBeGreaterThan(0);
        }
      }
    }
  });
});
