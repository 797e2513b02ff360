import { describe, expect, it } from "vitest";
import { inlineSchema, mcpTools, refusedAtTop, renderMcpTools } from "../src/mcp-tools.js";

const responses = {
  "200": { description: "ok", "x-billing": "billed" },
  "404": { $ref: "#/components/responses/NotFound" },
  "429": { description: "slow down", "x-billing": "free", content: { "application/json": { schema: { properties: { error: { const: "RATE_LIMITED" } } } } } },
  "502": { description: "upstream", "x-billing": "refunded" },
  default: { description: "by code", "x-billing": "by-code" },
};

const document = {
  openapi: "3.1.0",
  paths: {
    "/scrape/videosite/posts": {
      post: {
        operationId: "videositePosts",
        summary: "List a videosite creator's posts",
        description: "Returns one page of posts.\nFollow `next_cursor`.\n\nBilled per page; timeouts and the rest.",
        "x-credits": { standard: 1, accountRate: true },
        "x-paging": { mode: "cursor", items: "posts", request: "cursor", response: "next_cursor" },
        requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/VideositePostsRequest" } } } },
        responses,
      },
    },
    "/scrape/shortvideo/audience": {
      post: {
        operationId: "shortvideoAudience",
        summary: "Get an audience",
        description: "Returns the audience.",
        "x-credits": { standard: 25, accountRate: false },
        requestBody: { content: { "application/json": { schema: { type: "object", additionalProperties: true, "x-not-shown": "its fields" } } } },
        responses,
      },
    },
    "/webhooks": { get: { operationId: "listWebhooks", responses: { "200": { description: "ok" } } } },
  },
  components: {
    responses: {
      NotFound: {
        description: "gone",
        "x-billing": "billed",
        content: { "application/json": { schema: { allOf: [{ $ref: "#/components/schemas/ErrorEnvelope" }, { properties: { error: { const: "PROFILE_NOT_FOUND" } } }] } } },
      },
    },
    schemas: {
      ErrorEnvelope: { type: "object", properties: { error: { type: "string" } } },
      ErrorCode: {
        enum: ["BUSY", "GONE", "UNSHOWN"],
        "x-error-codes": {
          BUSY: { status: null, billing: "refunded", retry: "retry-after" },
          GONE: { status: 404, billing: "billed", retry: "never" },
          UNSHOWN: { status: null, billing: null, retry: "never" },
        },
      },
      Username: { type: "string", pattern: "^@?[a-z]+$", "x-not-shown": "nothing" },
      PostsRequest: { type: "object", required: ["username"], properties: { username: { $ref: "#/components/schemas/Username" }, cursor: { type: "string" } } },
      VideositePostsRequest: { allOf: [{ $ref: "#/components/schemas/PostsRequest" }, { type: "object", properties: { contentType: { type: "string" } } }] },
    },
  },
};

describe("the MCP tools of a priced surface", () => {
  const tools = mcpTools(document);

  it("makes one tool per operation with x-credits, named by its operationId and titled by its summary", () => {
    expect(tools.map((tool) => [tool.name, tool.title])).toEqual([
      ["videositePosts", "List a videosite creator's posts"],
      ["shortvideoAudience", "Get an audience"],
    ]);
    expect(tools.every((tool) => tool.annotations.readOnlyHint && tool.annotations.openWorldHint)).toBe(true);
    expect(tools.map((tool) => tool._meta["content-scraper/credits"])).toEqual([
      { standard: 1, accountRate: true },
      { standard: 25, accountRate: false },
    ]);
  });

  it("describes the operation by its first paragraph, then its price and billing from the extensions", () => {
    expect(tools[0]?.description).toBe(
      "Returns one page of posts. Follow `next_cursor`.\n\n" +
        "Costs 1 credit per page at the standard rate; the account's own rate may differ, and meta.creditsCharged says what was charged. " +
        "Billed: 200, 404 PROFILE_NOT_FOUND. Refunded: 502, BUSY. Free: 429.",
    );
    expect(tools[1]?.description).toContain("Costs 25 credits per call, whatever the account.");
  });

  it("inlines the request body's schema, drops the extensions, and merges an allOf into one plain object", () => {
    expect(tools[0]?.inputSchema).toEqual({
      type: "object",
      required: ["username"],
      properties: { username: { type: "string", pattern: "^@?[a-z]+$" }, cursor: { type: "string" }, contentType: { type: "string" } },
    });
    expect(tools[1]?.inputSchema).toEqual({ type: "object", additionalProperties: true, properties: {} });
    expect(JSON.stringify(tools)).not.toContain("$ref");
    expect(JSON.stringify(tools)).not.toContain("x-not-shown");
  });

  it("states a oneOf of required fields in words, leaving no combinator at the top of any tool's input", () => {
    const either = { ...document, paths: { ...document.paths } } as typeof document;
    either.paths["/scrape/shortvideo/audience"] = structuredClone(document.paths["/scrape/shortvideo/audience"]);
    either.paths["/scrape/shortvideo/audience"].post.requestBody.content["application/json"].schema = {
      type: "object",
      description: "Identify the creator.",
      properties: { handle: { type: "string" }, unique_id: { type: "string" } },
      oneOf: [
        { required: ["handle"], properties: { unique_id: { not: {} } } },
        { required: ["unique_id"], properties: { handle: { not: {} } } },
      ],
    } as never;
    const [, tool] = mcpTools(either);
    expect(tool?.inputSchema).toEqual({
      type: "object",
      description: "Identify the creator.\n\nSend exactly one of `handle`, `unique_id`: a call that does not is refused before it is sent.",
      properties: { handle: { type: "string" }, unique_id: { type: "string" } },
    });
    for (const each of [...tools, tool]) expect(Object.keys(each?.inputSchema ?? {}).filter((key) => refusedAtTop.includes(key as never))).toEqual([]);
  });

  it("refuses a schema that refers to itself, a request body that is no object, and a combinator it cannot state", () => {
    const cyclic = { components: { schemas: { Node: { type: "object", properties: { next: { $ref: "#/components/schemas/Node" } } } } } };
    expect(() => inlineSchema(cyclic, { $ref: "#/components/schemas/Node" })).toThrow("#/components/schemas/Node refers to itself");
    const array = structuredClone(document);
    array.paths["/scrape/shortvideo/audience"].post.requestBody.content["application/json"].schema = { type: "array" } as never;
    expect(() => mcpTools(array)).toThrow("shortvideoAudience: a tool's input must be a plain object schema; it has type array at its top");
    const enumerated = structuredClone(document);
    enumerated.paths["/scrape/shortvideo/audience"].post.requestBody.content["application/json"].schema = { type: "object", enum: [{}] } as never;
    expect(() => mcpTools(enumerated)).toThrow("shortvideoAudience: a tool's input must be a plain object schema; it has enum at its top");
  });

  it("renders a module whose tools are the same data", () => {
    const module = renderMcpTools(document);
    expect(module).toContain("export const tools: readonly GeneratedTool[] = ");
    expect(JSON.parse(module.slice(module.indexOf("= [") + 2, module.lastIndexOf(";")))).toEqual(tools);
  });
});
