import { describe, expect, it } from "vitest";
import { buildUrl, outgoingFrom, parseJson, responseFrom } from "../src/index.js";

describe("buildUrl", () => {
  const fail = (field: string, message: string) => Object.assign(new Error(message), { field });
  const fieldOf = (build: () => unknown) => {
    try {
      build();
    } catch (error) {
      return (error as { field?: string }).field;
    }
    return "accepted";
  };

  it("fills placeholders, percent-encoded, and appends the query without undefined values", () => {
    expect(buildUrl("https://h/api", "/webhooks/{id}/deliveries", { id: "a/b c" }, { cursor: "x+y=", limit: 25, skip: undefined, none: null }, fail)).toBe(
      "https://h/api/webhooks/a%2Fb%20c/deliveries?cursor=x%2By%3D&limit=25",
    );
    expect(buildUrl("https://h/api", "items", {}, { tag: ["a", "b"] }, fail)).toBe("https://h/api/items?tag=a&tag=b");
  });

  it("refuses a placeholder without a value, naming it", () => {
    expect(fieldOf(() => buildUrl("https://h", "/posts/{id}", {}, {}, fail))).toBe("pathParams.id");
    expect(fieldOf(() => buildUrl("https://h", "/posts/{id}", { id: "" }, {}, fail))).toBe("pathParams.id");
  });

  it.each(["/../../etc", "/accounts/../../x", "./x", "/a/%2e%2E/b", "/a/.%2E", "//evil.example/x", "https://evil.example/x", "/a\\..\\b"])(
    "refuses the path %s, which would leave the base path",
    (path) => expect(fieldOf(() => buildUrl("https://h/api/embed", path, {}, {}, fail))).toBe("path"),
  );

  it("refuses a path parameter that is a dot segment", () => {
    expect(fieldOf(() => buildUrl("https://h/api", "/posts/{id}/x", { id: ".." }, {}, fail))).toBe("pathParams.id");
    expect(buildUrl("https://h/api", "/posts/{id}", { id: "a..b" }, {}, fail)).toBe("https://h/api/posts/a..b");
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
