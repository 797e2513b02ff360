import { inspect } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createScraperClient, ScraperApiError, ScraperInputError } from "../src/index.js";
import { fail, startFaultServer } from "./fault-server.js";

const key = "scrape_live_4f9c2a7be81d4c6f9a0e5b3d2c1f8e7a";
const baseUrl = "http://127.0.0.1:9/api/v1";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

function inputError(create: () => unknown): ScraperInputError {
  try {
    create();
  } catch (error) {
    expect(error).toBeInstanceOf(ScraperInputError);
    return error as ScraperInputError;
  }
  throw new Error("expected a ScraperInputError");
}

describe("the key", () => {
  it("defaults to SCRAPER_API_KEY", () => {
    vi.stubEnv("SCRAPER_API_KEY", key);
    expect(() => createScraperClient({ baseUrl })).not.toThrow();
  });

  it.each([
    ["missing", undefined, /apiKey is missing.*scrape_live_.*SCRAPER_API_KEY/],
    ["empty", "", /apiKey is missing/],
    ["blank", "   ", /apiKey is missing/],
    ["a connect live key", "sk_live_51Hf0qLzXyZ", /sk_live_: that is a connect key.*scrape_live_/],
    ["a connect test key", "sk_test_51Hf0qLzXyZ", /sk_test_: that is a connect key/],
    ["some other string", "hunter2-secret", /not a scraper key.*scrape_live_/],
    ["the bare prefix", "scrape_live_", /not a scraper key/],
  ])("refuses %s, saying which key is expected", (_name, apiKey, message) => {
    vi.stubEnv("SCRAPER_API_KEY", undefined as unknown as string);
    const error = inputError(() => createScraperClient({ apiKey, baseUrl }));
    expect(error.field).toBe("apiKey");
    expect(error.message).toMatch(message);
    if (apiKey && apiKey.length > 12) expect(error.message).not.toContain(apiKey.slice(8));
  });
});

describe("options", () => {
  it.each([
    [{ baseUrl: undefined }, "baseUrl"],
    [{ baseUrl: "not a url" }, "baseUrl"],
    [{ baseUrl: "ftp://example.com/api/v1" }, "baseUrl"],
    [{ timeoutMs: 0 }, "timeoutMs"],
    [{ timeoutMs: Number.NaN }, "timeoutMs"],
    [{ retry: { maxRetries: 1.5 } }, "retry.maxRetries"],
    [{ retry: { maxRetries: -1 } }, "retry.maxRetries"],
    [{ retry: { baseDelayMs: -5 } }, "retry.baseDelayMs"],
    [{ rateLimit: { requestsPerMinute: 0 } }, "rateLimit.requestsPerMinute"],
    [{ fetch: "nope" as unknown as typeof fetch }, "fetch"],
    [{ validateResponses: "yes" as never }, "validateResponses"],
  ])("%j is refused with a typed error naming %s", (options, field) => {
    vi.stubEnv("SCRAPER_BASE_URL", undefined as unknown as string);
    const error = inputError(() => createScraperClient({ apiKey: key, baseUrl, ...options }));
    expect(error.field).toBe(field);
    expect(error.message).toContain(field.split(".").at(-1));
  });

  it("refuses validateResponses: true, saying where the validator is imported from", () => {
    // @ts-expect-error the option takes the validator function, not a flag
    const error = inputError(() => createScraperClient({ apiKey: key, baseUrl, validateResponses: true }));
    expect(error.field).toBe("validateResponses");
    expect(error.message).toContain('import { validateResponses } from "@content-scraper/client/validate"');
  });

  it("refuses a platform the operation does not exist on, naming the argument", async () => {
    const scraper = createScraperClient({ apiKey: key, baseUrl });
    // @ts-expect-error audience exists on shortvideo and photoshare only
    const error = await scraper.audience("videosite", "creator").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScraperInputError);
    expect((error as ScraperInputError).field).toBe("platform");
    expect((error as Error).message).toContain("shortvideo, photoshare");
  });
});

describe("backend only", () => {
  it("refuses to run in a browser", () => {
    vi.stubGlobal("window", { document: {} });
    const error = inputError(() => createScraperClient({ apiKey: key, baseUrl }));
    expect(error.field).toBe("dangerouslyAllowBrowser");
    expect(error.message).toMatch(/backend/);
  });

  it("runs in a browser only when told to, dangerously", () => {
    vi.stubGlobal("window", { document: {} });
    expect(() => createScraperClient({ apiKey: key, baseUrl, dangerouslyAllowBrowser: true })).not.toThrow();
  });
});

describe("the key never leaks", () => {
  it("is absent from util.inspect, JSON.stringify, errors and logs", async () => {
    const server = await startFaultServer();
    const lines: string[] = [];
    const log = (message: string, details?: unknown) => lines.push(message, JSON.stringify(details));
    const scraper = createScraperClient({
      apiKey: key,
      baseUrl: server.baseUrl,
      retry: { maxRetries: 1, baseDelayMs: 1 },
      logger: { debug: log, info: log, warn: log, error: log },
    });
    server.script(fail(502, "UPSTREAM_ERROR"), fail(401, "UNAUTHORIZED"));
    const error = await scraper.profile("shortvideo", "creator").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScraperApiError);
    expect(server.requests[0]?.headers["x-api-key"]).toBe(key);
    const secret = key.slice("scrape_live_".length);
    for (const text of [
      inspect(scraper, { depth: 10, showHidden: true }),
      JSON.stringify(scraper),
      inspect(error, { depth: 10, showHidden: true }),
      JSON.stringify(error),
      String((error as Error).stack),
      lines.join("\n"),
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(lines.length).toBeGreaterThan(0);
    await server.close();
  });
});
