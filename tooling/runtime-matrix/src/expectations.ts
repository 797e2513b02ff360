// What the conformance script must give on each runtime, checked with vitest's `expect`: the same outcome everywhere
// but where a runtime cannot do otherwise. A browser (a page or a worker) refuses a scraper client without
// `dangerouslyAllowBrowser` and follows the OAuth redirect itself (no PKCE case there). Node's fetch and a browser
// decode a body before any script sees a byte, and neither offers a public way to count its bytes on the wire, so the
// timeout bounds an endless compressed body there; Deno, Bun and workerd hand it over undecoded, and it stops on the
// wire. Each Node line also runs the CLI's export and an MCP tool call against a stalled upstream (`tools-entry.mjs`).
import { expect } from "vitest";

export type Results = Record<string, Record<string, unknown>>;

/** The runtimes `runMatrix` answers for. */
export const runtimes = ["Node 20", "Node 22", "Node 24", "Node 26", "Deno", "Bun", "workerd", "Chromium page", "Chromium worker"] as const;

const browsers = new Set<string>(["Chromium page", "Chromium worker"]);
const nodeLines = new Set<string>(["Node 20", "Node 22", "Node 24", "Node 26"]);
/** Where fetch decodes a compressed body before it can be counted. */
const decoding = new Set<string>([...browsers, ...nodeLines]);
/** The `maxResponseBytes` of the endless compressed body's case. */
const limit = 256 * 1024;
/** What the hostile server sends of the endless body before it holds the connection (`hostile-server.ts`). */
const sent = 4 * 1024 * 1024;

/** Checks every case of one runtime's results; the message names the runtime and the case. */
export function expectConformance(runtime: string, results: Results | undefined): void {
  const browser = browsers.has(runtime);
  const outcome = (name: string) => {
    const found = results?.[name];
    expect(found, `${runtime}: ${name} did not run`).toBeDefined();
    return found as Record<string, unknown>;
  };
  const expectCase = (name: string, expected: Record<string, unknown>) => expect(outcome(name), `${runtime}: ${name}`).toMatchObject(expected);
  const within = (name: string, ms: number) => expect(outcome(name).ms, `${runtime}: ${name} took`).toBeLessThan(ms);

  expectCase("backend only", browser ? { refused: true, error: "ScraperInputError", field: "dangerouslyAllowBrowser" } : { refused: false });
  expectCase("profile", { username: "maya.bakes", credits: 1 });
  expectCase("a three-page walk", { pages: 3, posts: 77, unique: 77, credits: 3 });
  expectCase("402", { error: "ScraperApiError", code: "INSUFFICIENT_SCRAPER_CREDITS", status: 402, billed: false });
  expectCase("404", { error: "ScraperApiError", code: "PROFILE_NOT_FOUND", status: 404, billed: true });
  for (const [name, error] of [
    ["a stalled body", "ScraperTimeoutError"],
    ["connect, a stalled body", "ConnectTimeoutError"],
    ["platform, a stalled body", "PlatformTimeoutError"],
    ["OAuth, a stalled discovery", "PlatformTimeoutError"],
  ] as const) {
    // Within timeoutMs + 1 s.
    expectCase(name, { error, inFlight: true, timeoutMs: 1000 });
    within(name, 2000);
  }
  if (decoding.has(runtime)) {
    expectCase("an endless compressed body", { error: "ScraperTimeoutError", timeoutMs: 5000 });
    within("an endless compressed body", 6000);
  } else {
    // Stopped by its size, counted on the wire, not by the timeout (the server stops sending after 4 MiB and holds the
    // connection: a client that did not count the wire times out). The count ends with the chunk that crossed the limit,
    // whatever the runtime read meanwhile (Bun's passed 8 MB once on a starved machine, when the server sent without end).
    expectCase("an endless compressed body", { error: "ScraperResponseTooLargeError", counted: "wire" });
    expect(outcome("an endless compressed body").bytes, `${runtime}: bytes read of the endless body`).toBeGreaterThan(limit);
    // The body on the wire: the 10-byte gzip header, then what was sent.
    expect(outcome("an endless compressed body").bytes, `${runtime}: bytes read of the endless body`).toBeLessThanOrEqual(10 + sent);
  }
  expectCase("an abort", { error: "ScraperAbortError", inFlight: true, cause: "Error: enough" });
  within("an abort", 1300);
  expectCase("connect", { environment: "sandbox", error: "ConnectApiError", status: 404 });
  expectCase("platform", { items: 25, hasMore: true, nextCursor: "string" });
  if (!browser) expectCase("OAuth PKCE", { tokenType: "bearer", expiresIn: 3600 });
  if (nodeLines.has(runtime)) {
    // The export fails the creator on its timeout, checkpointed for the next run; the tool call answers the timeout.
    // Each within its 1 s timeout plus the process's start.
    expectCase("CLI export, a stalled upstream", { timedOut: true });
    within("CLI export, a stalled upstream", 10_000);
    expectCase("MCP tool call, a stalled upstream", { isError: true, kind: "ScraperTimeoutError" });
    expect(outcome("MCP tool call, a stalled upstream").callMs, `${runtime}: the tool call took`).toBeLessThan(3000);
  }
}
