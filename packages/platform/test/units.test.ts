import { describe, expect, it } from "vitest";
import { operations } from "../src/generated/platform.operations.js";
import { idempotencyKeyFor } from "../src/idempotency.js";
import { cursorItems, pageItems, PlatformInputError } from "../src/index.js";
import { operationMatcher } from "../src/transport.js";

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe("the codegen table drives idempotency", () => {
  it("reads x-idempotency for every write the reference names", () => {
    expect(
      Object.fromEntries(Object.values(operations).flatMap((rules) => ("idempotency" in rules ? [[rules.operationId, rules.idempotency]] : []))),
    ).toEqual({
      testWebhook: "optional",
      executePayout: "required",
      executeQuickPay: "required",
      createInvoice: "recommended",
      sendInvoice: "recommended",
      voidInvoice: "recommended",
      createCampaignAnalyticsHistory: "required",
    });
    expect(operations.createCampaignAnalyticsHistory.idempotencyKey).toEqual({ required: true, minLength: 8, maxLength: 200 });
    expect(operations.executePayout.idempotencyKey).toEqual({ required: true, minLength: 1 });
    expect(operations.requestToken.security).toEqual([]);
  });

  it("idempotencyKeyFor: a UUID on writes, none on reads or protocol endpoints; the caller's key checked", () => {
    expect(idempotencyKeyFor("POST", operations.executePayout, undefined)).toMatch(uuid);
    expect(idempotencyKeyFor("PATCH", undefined, undefined)).toMatch(uuid);
    expect(idempotencyKeyFor("PUT", undefined, undefined)).toMatch(uuid);
    expect(idempotencyKeyFor("GET", operations.getPostMetricsHistory, undefined)).toBeUndefined();
    expect(idempotencyKeyFor("DELETE", undefined, undefined)).toBeUndefined();
    expect(idempotencyKeyFor("POST", operations.requestToken, undefined)).toBeUndefined();
    expect(idempotencyKeyFor("POST", operations.sendInvoice, "k")).toBe("k");
    expect(() => idempotencyKeyFor("POST", operations.sendInvoice, "")).toThrow(PlatformInputError);
    expect(() => idempotencyKeyFor("POST", operations.sendInvoice, "a\r\nb")).toThrow(/one line/);
    expect(() => idempotencyKeyFor("POST", operations.createCampaignAnalyticsHistory, "1234567")).toThrow(/8 to 200 characters/);
  });

  it("operationMatcher: finds an operation by method and templated path", () => {
    const match = operationMatcher(operations);
    expect(match("post", "/webhooks/wh_1/test")?.operationId).toBe("testWebhook");
    expect(match("GET", "/webhooks/wh_1/deliveries")?.operationId).toBe("listWebhookDeliveries");
    expect(match("GET", "/webhooks/wh_1/test")).toBeUndefined();
    expect(match("POST", "/webhooks/a/b/test")).toBeUndefined();
    expect(match("POST", "/payouts/quick-pay")?.operationId).toBe("executeQuickPay");
  });
});

describe("cursorItems", () => {
  it("stops when hasMore is false, passing each nextCursor back verbatim", async () => {
    const cursors: Array<string | undefined> = [];
    const pages = [
      { data: [1, 2], nextCursor: "a", hasMore: true },
      { data: [], nextCursor: "b", hasMore: true },
      { data: [3], nextCursor: null, hasMore: false },
    ];
    const fetchPage = async (cursor: string | undefined) => {
      cursors.push(cursor);
      return pages[cursors.length - 1] as (typeof pages)[number];
    };
    expect(await collect(cursorItems(fetchPage))).toEqual([1, 2, 3]);
    expect(cursors).toEqual([undefined, "a", "b"]);
  });

  it("also stops on hasMore without a cursor, and on a cursor it already followed", async () => {
    let calls = 0;
    const page = (nextCursor: string | null) => async () => {
      calls++;
      return { data: [1], nextCursor, hasMore: true };
    };
    await collect(cursorItems(page(null)));
    expect(calls).toBe(1);
    calls = 0;
    await collect(cursorItems(page("same")));
    expect(calls).toBe(2);
  });
});

describe("pageItems", () => {
  it("stops once page × limit ≥ total", async () => {
    const asked: number[] = [];
    const fetchPage = async (page: number) => {
      asked.push(page);
      return { data: [page], page, total: 3 };
    };
    const items = await collect(pageItems(fetchPage, 1));
    expect(items).toEqual([1, 2, 3]);
    expect(asked).toEqual([1, 2, 3]);
  });
});
