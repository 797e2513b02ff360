import { describe, expect, it } from "vitest";
import { inlineSchema, mcpTools, renderMcpTools } from "../src/mcp-tools.js";

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

  it("inlines the request body's schema, drops the extensions, and states the object an allOf makes", () => {
    expect(tools[0]?.inputSchema).toEqual({
      type: "object",
      allOf: [
        { type: "object", required: ["username"], properties: { username: { type: "string", pattern: "^@?[a-z]+$" }, cursor: { type: "string" } } },
        { type: "object", properties: { contentType: { type: "string" } } },
      ],
    });
    expect(tools[1]?.inputSchema).toEqual({ type: "object", additionalProperties: true });
    expect(JSON.stringify(tools)).not.toContain("$ref");
    expect(JSON.stringify(tools)).not.toContain("x-not-shown");
  });

  it("refuses a schema that refers to itself, and a request body that is no object", () => {
    const cyclic = { components: { schemas: { Node: { type: "object", properties: { next: { $ref: "#/components/schemas/Node" } } } } } };
    expect(() => inlineSchema(cyclic, { $ref: "#/components/schemas/Node" })).toThrow("#/components/schemas/Node refers to itself");
    const array = structuredClone(document);
    array.paths["/scrape/shortvideo/audience"].post.requestBody.content["application/json"].schema = { type: "array" } as never;
    expect(() => mcpTools(array)).toThrow("shortvideoAudience: an MCP tool's input must be an object; the request body is array");
  });

  it("renders a module whose tools are the same data", () => {
    const module = renderMcpTools(document);
    expect(module).toContain("export const tools: readonly GeneratedTool[] = ");
    expect(JSON.parse(module.slice(module.indexOf("= [") + 2, module.lastIndexOf(";")))).toEqual(tools);
  });
});
