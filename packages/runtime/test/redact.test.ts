import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { checkBaseUrl, checkCredential, ContentScraperError, isCount, readAmount, readCount, Redactor } from "../src/index.js";

const key = "scrape_live_Abc123SecretKey";
const fail = (field: string, message: string) => Object.assign(new Error(message), { field });
const every = (error: unknown) => [String(error), (error as Error).message, (error as Error).stack ?? "", JSON.stringify(error), inspect(error, { depth: 20 })];

class FamilyError extends ContentScraperError {
  override name = "FamilyError";
  constructor(
    message: string,
    readonly serviceMessage: string,
    readonly body: unknown,
    options?: ConstructorParameters<typeof ContentScraperError>[1],
  ) {
    super(message, options);
  }
}

describe("the redactor", () => {
  const redactor = new Redactor([key, undefined, "ab"]);

  it("removes a credential in any case and in the forms a server echoes it, and keeps values too short to be one", () => {
    expect(redactor.text(`bad key ${key}; ${key.toUpperCase()}; ${encodeURIComponent(`${key}/x`)}`)).toBe("bad key [redacted]; [redacted]; [redacted]%2Fx");
    expect(redactor.text("about ab")).toBe("about ab");
    const quoted = new Redactor(['to"ken\\1']);
    expect(quoted.text(JSON.stringify({ echoed: 'to"ken\\1' }))).toBe('{"echoed":"[redacted]"}');
  });

  it("redacts an error of the SDK in place: message, stack, every field, and a foreign cause chain by copy", () => {
    const undici = new TypeError(`Headers.append: "${key}\n" is an invalid header value`);
    const wrapper = new Error("fetch failed", { cause: undici });
    const error = new FamilyError(`answered 404: no profile for key ${key}`, `no profile for key ${key}`, { error: "X", echo: [key] }, { status: 404, requestId: "req_1", cause: wrapper });
    expect(redactor.error(error)).toBe(error);
    for (const text of every(error)) expect(text).not.toContain(key);
    expect(error.message).toBe("answered 404: no profile for key [redacted]");
    expect(error.body).toEqual({ error: "X", echo: ["[redacted]"] });
    expect(error.cause).toBeInstanceOf(Error);
    expect((error.cause as Error).cause).toMatchObject({ name: "TypeError", message: 'Headers.append: "[redacted]\n" is an invalid header value' });
    // The caller's own objects are not changed.
    expect(undici.message).toContain(key);
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ name: "FamilyError", status: 404, requestId: "req_1" });
  });

  it("leaves an error without a credential as it is, cycles included", () => {
    const plain = new Error("nothing secret");
    const cyclic = new FamilyError("loop", "", {}, { cause: plain });
    (plain as { cause?: unknown }).cause = cyclic;
    expect(redactor.error(plain)).toBe(plain);
    expect(redactor.error(cyclic)).toBe(cyclic);
  });

  it("redacts log lines and their details, and headers a server echoed", () => {
    const lines: unknown[] = [];
    const logger = redactor.logger({ warn: (message, details) => lines.push(message, details) });
    logger.warn?.(`retry ${key}`, { nested: { key }, list: [key] });
    expect(logger.debug).toBeUndefined();
    expect(JSON.stringify(lines)).not.toContain(key);
    const headers = new Headers({ "x-echo": `key=${key}`, other: "fine" });
    expect(redactor.headers(headers).get("x-echo")).toBe("key=[redacted]");
    expect(redactor.headers(new Headers({ other: "fine" })).get("other")).toBe("fine");
  });

  it("keeps its credentials out of util.inspect and JSON", () => {
    expect(inspect(redactor, { showHidden: true, depth: 10 })).not.toContain(key);
    expect(JSON.stringify(redactor)).not.toContain(key);
  });
});

describe("credentials and base URLs", () => {
  it.each([
    ["a newline", `${key}\n`],
    ["two keys read from one file", `${key}\n${key}`],
    ["a carriage return", `${key}\r`],
    ["NUL", `${key}\0`],
    ["a space", `${key} `],
    ["non-ASCII", `${key}é`],
  ])("refuses a credential holding %s, naming the field and not the value", (_name, value) => {
    const error = (() => {
      try {
        checkCredential("apiKey", value, fail);
      } catch (thrown) {
        return thrown as Error & { field: string };
      }
      throw new Error("accepted");
    })();
    expect(error.field).toBe("apiKey");
    expect(inspect(error)).not.toContain(key);
  });

  it.each([
    ["userinfo", "https://user:secret@api.example.com/api/v1", "user or password"],
    ["a user alone", "https://user@api.example.com/api/v1", "user or password"],
    ["plain http to another machine", "http://api.example.com/api/v1", "cleartext"],
    ["a query", "https://api.example.com/api/v1?x=1", "query"],
  ])("refuses a base URL with %s, never echoing it", (_name, value, words) => {
    expect(() => checkBaseUrl("baseUrl", value, { example: "https://<host>/api/v1" }, fail)).toThrow(words);
    try {
      checkBaseUrl("baseUrl", value, { example: "https://<host>/api/v1" }, fail);
    } catch (error) {
      expect((error as Error).message).not.toContain("secret");
    }
  });

  it("takes plain http to this machine, and to another only when the caller opts in by name", () => {
    for (const loopback of ["http://127.0.0.1:4010/api/v1", "http://localhost:1/api/v1", "http://[::1]:4010/api/v1", "http://127.9.8.7/api/v1"]) {
      expect(checkBaseUrl("baseUrl", loopback, { example: "" }, fail)).toBe(loopback);
    }
    expect(checkBaseUrl("baseUrl", "http://staging.internal/api/v1/", { example: "", allowInsecureHttp: true }, fail)).toBe("http://staging.internal/api/v1");
    expect(() => checkBaseUrl("baseUrl", "http://127.evil.example/api/v1", { example: "" }, fail)).toThrow("cleartext");
  });
});

describe("figures", () => {
  it("reads counts and amounts, and nothing that is not one", () => {
    expect([0, 3, "12", " 7 "].map(readCount)).toEqual([0, 3, 12, 7]);
    expect([-1, 1.5, "1e2", "-1", "ten", null, undefined, Number.NaN, "9".repeat(20), [1]].map(readCount)).toEqual(Array(10).fill(undefined));
    expect([0, 2.5, "1.5"].map(readAmount)).toEqual([0, 2.5, 1.5]);
    expect([-0.1, Number.POSITIVE_INFINITY, Number.NaN, null, "NaN", "-1", {}].map(readAmount)).toEqual(Array(7).fill(undefined));
    expect([isCount(1), isCount(-1), isCount(1.5), isCount("1")]).toEqual([true, false, false, false]);
  });
});
