import { describe, expect, it } from "vitest";
import { buildUrl, outgoingFrom, parseJson, responseFrom } from "../src/index.js";

describe("buildUrl", () => {
  it("fills placeholders, percent-encoded, and appends the query without undefined values", () => {
    expect(buildUrl("https://h/api", "/webhooks/{id}/deliveries", { id: "a/b c" }, { cursor: "x+y=", limit: 25, skip: undefined, none: null })).toBe(
      "https://h/api/webhooks/a%2Fb%20c/deliveries?cursor=x%2By%3D&limit=25",
    );
    expect(buildUrl("https://h/api", "items", {}, { tag: ["a", "b"] })).toBe("https://h/api/items?tag=a&tag=b");
  });

  it("refuses a placeholder without a value", () => {
    expect(() => buildUrl("https://h", "/posts/{id}", {})).toThrow(/needs a value for \{id\}/);
    expect(() => buildUrl("https://h", "/posts/{id}", { id: "" })).toThrow(TypeError);
  });
});

describe("openapi-fetch adapters", () => {
  it("outgoingFrom reads the request's parts once", async () => {
    const request = new Request("https://h/x", { method: "POST", headers: { "x-a": "1" }, body: "{}" });
    const outgoing = await outgoingFrom(request);
    expect(outgoing).toMatchObject({ url: "https://h/x", method: "POST" });
    expect(new TextDecoder().decode(outgoing.body as ArrayBuffer)).toBe("{}");
    expect((await outgoingFrom(new Request("https://h/x"))).body).toBeUndefined();
  });

  it("outgoingFrom keeps a redirect as the answer only when the caller asks", async () => {
    expect((await outgoingFrom(new Request("https://h/x", { redirect: "manual" }))).keepRedirect).toBe(true);
    expect((await outgoingFrom(new Request("https://h/x"))).keepRedirect).toBe(false);
  });

  it("responseFrom keeps status and headers; an empty body stays null (204 allows no body)", async () => {
    const original = new Response(null, { status: 204, headers: { "x-b": "2" } });
    const copy = responseFrom({ response: original, text: "" });
    expect([copy.status, copy.headers.get("x-b"), copy.body]).toEqual([204, "2", null]);
    expect(await responseFrom({ response: new Response("x", { status: 201 }), text: '{"a":1}' }).json()).toEqual({ a: 1 });
  });
});

describe("parseJson", () => {
  it("is undefined for empty or invalid text", () => {
    expect(parseJson('{"a":1}')).toEqual({ a: 1 });
    expect(parseJson("  ")).toBeUndefined();
    expect(parseJson("<html>")).toBeUndefined();
  });
});
