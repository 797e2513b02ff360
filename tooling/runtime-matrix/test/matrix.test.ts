// One conformance script on every runtime (src/conformance.js): the same outcome everywhere, but where a runtime cannot
// do otherwise (a browser refuses to build a client without `dangerouslyAllowBrowser`, and decodes a body before any
// script sees a byte, so only the timeout bounds an endless compressed body there). The SDK is installed from packed
// tarballs into a fresh project, as an integrator installs it.
import { startMock } from "@content-scraper/mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHostileServer } from "../src/hostile-server.mjs";
import { installedProject } from "../src/install.mjs";
import { runMatrix } from "../src/runtimes.mjs";

type Results = Record<string, Record<string, unknown>>;
let results: Record<string, Results>;
let mock: Awaited<ReturnType<typeof startMock>>;
let hostile: Awaited<ReturnType<typeof startHostileServer>>;

beforeAll(async () => {
  [mock, hostile] = await Promise.all([startMock({ port: 0 }), startHostileServer()]);
  const project = await installedProject();
  results = await runMatrix(project, { sandbox: mock.url, baseUrls: mock.baseUrls, hostile: hostile.origin, browser: false });
}, 600_000);
afterAll(async () => {
  await Promise.all([mock?.close(), hostile?.close()]);
});

const limit = 256 * 1024;
const runtimes = ["Node 20", "Node 22", "Node 24", "Deno", "Bun", "workerd", "Chromium page", "Chromium worker"];
const browsers = new Set(["Chromium page", "Chromium worker"]);

describe.each(runtimes)("%s", (runtime) => {
  const outcome = (name: string) => results[runtime]?.[name];
  const browser = browsers.has(runtime);

  it("refuses a scraper client in a browser, page or worker, without dangerouslyAllowBrowser, and builds one elsewhere", () => {
    expect(outcome("backend only")).toMatchObject(browser ? { refused: true, error: "ScraperInputError", field: "dangerouslyAllowBrowser" } : { refused: false });
  });

  it("calls, walks three pages and reads 402 and 404 alike", () => {
    expect(outcome("profile")).toMatchObject({ username: "maya.bakes", credits: 1 });
    expect(outcome("a three-page walk")).toMatchObject({ pages: 3, posts: 77, unique: 77, credits: 3 });
    expect(outcome("402")).toMatchObject({ error: "ScraperApiError", code: "INSUFFICIENT_SCRAPER_CREDITS", status: 402, billed: false });
    expect(outcome("404")).toMatchObject({ error: "ScraperApiError", code: "PROFILE_NOT_FOUND", status: 404, billed: true });
  });

  it.each([
    ["a stalled body", "ScraperTimeoutError"],
    ["connect, a stalled body", "ConnectTimeoutError"],
    ["platform, a stalled body", "PlatformTimeoutError"],
  ])("ends %s within timeoutMs + 1 s, with the client's timeout error", (name, error) => {
    expect(outcome(name)).toMatchObject({ error, inFlight: true, timeoutMs: 1000 });
    expect(outcome(name)?.ms).toBeLessThan(2000);
  });

  it("stops an endless compressed body within 2 × maxResponseBytes on the wire; in a browser, which decodes first, at the timeout", () => {
    const endless = outcome("an endless compressed body");
    if (browser) {
      expect(endless).toMatchObject({ error: "ScraperTimeoutError", timeoutMs: 5000 });
      expect(endless?.ms).toBeLessThan(6000);
    } else {
      expect(endless).toMatchObject({ error: "ScraperResponseTooLargeError", counted: "wire" });
      expect(endless?.bytes).toBeLessThan(2 * limit);
    }
  });

  it("ends an aborted call at once with the client's abort error, the reason as its cause", () => {
    expect(outcome("an abort")).toMatchObject({ error: "ScraperAbortError", inFlight: true, cause: "Error: enough" });
    expect(outcome("an abort")?.ms).toBeLessThan(1300);
  });

  it("runs the connect and platform clients, and the OAuth PKCE flow where a script reads the redirect", () => {
    expect(outcome("connect")).toMatchObject({ environment: "sandbox", error: "ConnectApiError", status: 404 });
    expect(outcome("platform")).toMatchObject({ items: 25, hasMore: true, nextCursor: "string" });
    if (!browser) expect(outcome("OAuth PKCE")).toMatchObject({ tokenType: "bearer", expiresIn: 3600 });
  });
});

it("releases every timed-out and aborted request's connection", () => {
  expect(hostile.open).toBe(0);
});
