import { describe, expect, it } from "vitest";
import { checkApiKey } from "../src/index.js";

const fail = (field: string, message: string) => Object.assign(new Error(message), { field });
const connect = { surface: "connect", prefixes: ["sk_live_", "sk_test_"], rejectedKeyPrefixes: { scrape_live_: "scraper" } };
const legacy = { surface: "key-based platform API", prefixes: [], rejectedKeyPrefixes: { scrape_live_: "scraper", sk_live_: "connect" }, envVar: "X_KEY" };

describe("checkApiKey", () => {
  it("returns the key and the valid prefix it starts with", () => {
    expect(checkApiKey("sk_test_abc", connect, fail)).toEqual({ key: "sk_test_abc", prefix: "sk_test_" });
    expect(checkApiKey("company-key", legacy, fail)).toEqual({ key: "company-key", prefix: undefined });
  });

  it.each([
    [connect, undefined, /apiKey is missing: pass a connect key, which starts with sk_live_ or sk_test_\.$/],
    [legacy, " ", /apiKey is missing: pass a key-based platform API key, or set X_KEY\./],
    [connect, "scrape_live_0123456789", /apiKey starts with scrape_live_: that is a scraper key\. The connect takes a connect key/],
    [legacy, "sk_live_0123456789", /starts with sk_live_: that is a connect key/],
    [connect, "sk_live_", /apiKey is not a connect key/],
    [connect, "pk_live_0123456789", /apiKey is not a connect key/],
  ])("refuses, naming the expected key and never the key itself", (rules, key, message) => {
    let error: Error | undefined;
    try {
      checkApiKey(key, rules, fail);
    } catch (caught) {
      error = caught as Error;
    }
    expect(error?.message).toMatch(message);
    expect(error).toMatchObject({ field: "apiKey" });
    if (key && key.length > 12) expect(error?.message).not.toContain(key.slice(8));
  });
});
