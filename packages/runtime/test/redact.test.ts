import { readFileSync } from "node:fs";
import { inspect } from "node:util";
import { echoes, leakedForms } from "@content-scraper/test-server";
import { describe, expect, it } from "vitest";
import { checkBaseUrl, checkCredential, ContentScraperError, isCount, readAmount, readCount, Redactor } from "../src/index.js";
import { publicKeyPrefixes } from "../src/keys.js";

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

describe("what a server may send instead of a credential", () => {
  // A key with a documented public prefix, a connect key, and a token that is random throughout.
  const credentials = [
    { secret: "scrape_live_h0stile_SecretKey_4f9c2b7e1d3a", publicPrefix: "scrape_live_" },
    { secret: "sk_test_h0stile_SecretKey_4f9c2b7e1d3a", publicPrefix: "sk_test_" },
    { secret: "eyJh0stile_SecretToken_4f9c2b7e1d3a8b", publicPrefix: "" },
  ];
  // Where a server puts what it echoes: a line of text, JSON it wrote by hand (escapes kept as sent), HTML, a URL.
  const placed = (pieces: string[]) => [
    `upstream said: bad key ${pieces.join(" and ")}.`,
    `{"error":"UNAUTHORIZED","message":"no key ${pieces[0]}","hint":"${pieces[1] ?? ""}"}`,
    `<p>Key <b>${pieces.join("</b> <b>")}</b> is unknown</p>`,
    `https://api.example/callback?key=${pieces.join("&half=")}&next=1`,
  ];

  describe.each(credentials)("$secret", ({ secret, publicPrefix }) => {
    const redactor = new Redactor([secret]);
    it.each(echoes.map((echo) => [echo.name, echo] as const))("%s: redacted wherever it stands", (_name, echo) => {
      for (const text of placed(echo.pieces(secret, publicPrefix))) {
        const out = redactor.text(text);
        expect(leakedForms([out], secret, publicPrefix), out).toEqual([]);
        expect(out).toContain("[redacted]");
        expect(redactor.leaks(text)).toBe(true);
        expect(redactor.leaks(out)).toBe(false);
      }
    });

    it("keeps JSON it redacts valid, and what surrounds an escaped credential as it was", () => {
      const json = JSON.stringify({ pieces: echoes.flatMap((echo) => echo.pieces(secret, publicPrefix)), note: "a\u00e9b%2F" });
      const out = JSON.parse(redactor.text(json)) as { pieces: string[]; note: string };
      expect(leakedForms([JSON.stringify(out), ...out.pieces], secret, publicPrefix)).toEqual([]);
      expect(out.note).toBe("a\u00e9b%2F");
      expect(redactor.text(`%2F${encodeURIComponent(secret)}%2Fx&amp;`)).toBe("%2F[redacted]%2Fx&amp;");
    });

    it("finds its base64 inside a longer base64 string, however its bytes fall into groups", () => {
      for (let before = 0; before < 6; before++) {
        const encoded = Buffer.from(`${"x".repeat(before)}${secret}${"y".repeat(before)}`).toString("base64");
        const [head, tail, ...rest] = redactor.text(encoded).split("[redacted]");
        expect(rest).toEqual([]);
        // What is left encodes the bytes around the secret and at most two of its own at either end.
        expect((head as string).length).toBeLessThanOrEqual(Math.ceil(((before + 2) * 4) / 3) + 1);
        expect((tail as string).length).toBeLessThanOrEqual(Math.ceil(((before + 2) * 4) / 3) + 3);
      }
    });
  });

  it("never redacts a public prefix, nor fewer than 12 characters of a random part", () => {
    const redactor = new Redactor(credentials.map(({ secret }) => secret));
    const text = "keys start with scrape_live_ or sk_test_: scrape_live_h0stile_Sec, scrape_live_… and sk_test_h0stile_Sec";
    expect(redactor.text(text)).toBe(text);
    expect(redactor.text("scrape_live_h0stile_Secr")).toBe("scrape_live_[redacted]");
    // A secret without a documented prefix is random throughout.
    expect(new Redactor(["company_h0stile_SecretKey"]).text("company_h0sti")).toBe("[redacted]");
    // A short secret is redacted whole only.
    expect(new Redactor(["sk_test_abc123"]).text("sk_test_abc123 sk_test_abc12")).toBe("[redacted] sk_test_abc12");
    // A word-like one (the sandbox's magic tokens) too: its runs are the words the service's own answers use.
    const magic = new Redactor(["sandbox_insufficient_scope"]);
    expect(magic.text('{"error":"insufficient_scope"} Bearer sandbox_insufficient_scope')).toBe('{"error":"insufficient_scope"} Bearer [redacted]');
    expect(magic.text("c2FuZGJveF9pbnN1ZmZpY2llbnRfc2NvcGU=")).toBe("[redacted]");
  });

  it("takes linear time on a long hostile input: near misses of every form, and escapes that lead nowhere", () => {
    const { secret, publicPrefix } = credentials[0] as (typeof credentials)[number];
    const random = secret.slice(publicPrefix.length);
    // Each miss holds at most 11 characters of the random part, in any form, or an escape that decodes to nothing.
    const misses = [
      ...echoes.flatMap((echo) => echo.pieces(`${random.slice(0, 11)}${"~".repeat(13)}`, "")),
      `${publicPrefix}${random.slice(0, 11)}`,
      "%%%%%%%%",
      "&#0000000000000000000",
      "&#x00000000000000000",
      "\\\\\\\\\\\\\\\\\\u00",
      "&lowbar&lowbar&lowbar",
      "&verylongnamethatisnoentity;",
    ].join(" ");
    const hostile = misses.repeat(Math.ceil(1_000_000 / misses.length));
    const redactor = new Redactor([secret, "a-second-Secret-0123456789abcdef"]);
    expect(redactor.leaks(hostile)).toBe(false);
    const started = performance.now();
    const out = redactor.text(`${hostile}${secret}`);
    // The bound is far above a linear scan and far below what a backtracking pattern would take on a megabyte.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(out.length).toBe(hostile.length + "[redacted]".length);
    expect(out.endsWith("[redacted]")).toBe(true);
  });

  it("knows every key prefix the descriptions document, and no other", () => {
    const documented = new Set<string>();
    for (const surface of ["scraper", "connect", "platform", "platform-legacy"]) {
      const lines = readFileSync(new URL(`../../../spec/${surface}/openapi.yaml`, import.meta.url), "utf8").split("\n");
      lines.forEach((line, index) => {
        const prefix = /^\s*x-key-prefix:\s*(\S+)/.exec(line)?.[1];
        if (prefix) documented.add(prefix);
        if (!/^\s*x-(key-environments|rejected-key-prefixes):\s*$/.test(line)) return;
        const indent = line.search(/\S/);
        for (const entry of lines.slice(index + 1)) {
          if (entry.search(/\S/) <= indent) break;
          documented.add((/^\s*(\S+):/.exec(entry) as RegExpExecArray)[1] as string);
        }
      });
    }
    expect([...documented].sort()).toEqual([...publicKeyPrefixes].sort());
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
