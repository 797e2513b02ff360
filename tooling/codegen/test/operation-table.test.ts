import { describe, expect, it } from "vitest";
import { operationTable, renderOperationTable } from "../src/operation-table.js";

const document = {
  openapi: "3.1.0",
  "x-rate-limit": { requestsPerMinute: 120, burstSeconds: 60, refill: "continuous", scope: "account" },
  paths: {
    "/scrape/videosite/posts": {
      post: {
        operationId: "videositePosts",
        tags: ["videosite"],
        "x-credits": { standard: 1, accountRate: true },
        "x-timeout-seconds": 90,
        "x-typical-duration-seconds": { min: 15, max: 45 },
        "x-paging": { mode: "cursor", request: "cursor", response: "next_cursor", pageSize: { max: 30, exact: true } },
        "x-unknown-fields": "ignore",
        requestBody: { $ref: "#/components/requestBodies/Posts" },
        responses: { "200": { description: "ok", "x-billing": "billed" }, "404": { $ref: "#/components/responses/NotFound" } },
      },
    },
    "/webhooks": { get: { operationId: "listWebhooks", responses: { "200": { description: "ok" } } } },
  },
  components: {
    requestBodies: { Posts: { required: true, content: {} } },
    responses: { NotFound: { description: "gone", "x-billing": "billed" } },
    schemas: {
      ErrorCode: {
        enum: ["A"],
        "x-error-codes": { A: { status: null, billing: "refunded", retry: "retry-after" } },
        "x-retry-backoff": { scheduleSeconds: [30, 60], capSeconds: 300, jitter: true },
      },
    },
    securitySchemes: {
      Key: { type: "apiKey", in: "header", name: "x-api-key", "x-key-prefix": "scrape_live_" },
      OAuth: { type: "oauth2", flows: {} },
    },
  },
};

describe("the operation table", () => {
  const table = operationTable(document);

  it("reads each operation's rules from its vendor extensions, following $refs", () => {
    expect(table.operations.videositePosts).toEqual({
      operationId: "videositePosts",
      method: "POST",
      path: "/scrape/videosite/posts",
      platform: "videosite",
      resource: "posts",
      tag: "videosite",
      credits: { standard: 1, accountRate: true },
      timeoutMs: 90_000,
      typicalDurationMs: { min: 15_000, max: 45_000 },
      paging: { mode: "cursor", request: "cursor", response: "next_cursor", pageSize: { max: 30, exact: true } },
      unknownFields: "ignore",
      requestBodyRequired: true,
      billing: { "200": "billed", "404": "billed" },
    });
  });

  it("states nothing the description does not", () => {
    expect(table.operations.listWebhooks).toEqual({
      operationId: "listWebhooks",
      method: "GET",
      path: "/webhooks",
      requestBodyRequired: false,
      billing: {},
    });
  });

  it("reads the error codes, backoff, default rate and keys", () => {
    expect(table.errorCodes).toEqual({ A: { status: null, billing: "refunded", retry: "retry-after" } });
    expect(table.retryBackoff).toEqual({ scheduleSeconds: [30, 60], capSeconds: 300, jitter: true });
    expect(table.rateLimit?.requestsPerMinute).toBe(120);
    expect(table.apiKeys).toEqual({ Key: { in: "header", name: "x-api-key", keyPrefix: "scrape_live_" } });
  });

  it("renders as an as-const module, deterministically", () => {
    const source = renderOperationTable(table);
    expect(source).toContain("export const operations = {");
    expect(source).toContain("} as const;");
    expect(renderOperationTable(operationTable(structuredClone(document)))).toBe(source);
  });
});
