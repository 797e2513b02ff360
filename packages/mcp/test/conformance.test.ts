// @modelcontextprotocol/conformance (0.1.13, the last release that runs on Node 20) against the bin's Streamable HTTP.
// Its server scenarios are of two kinds: protocol checks any server must pass, run here, and checks of the
// conformance suite's own reference server (tools such as `test_simple_text`, prompts, resources, completions,
// logging, sampling and elicitation), which a server without those fixtures fails by construction; they are listed
// below so that a scenario a new release adds is sorted here rather than skipped unseen.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type RunningMock, startMock } from "@content-scraper/mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpServer } from "./helpers.js";

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const conformance = join(require.resolve("@modelcontextprotocol/conformance/package.json"), "../dist/index.js");

const applicable = ["server-initialize", "ping", "tools-list", "server-sse-multiple-streams", "server-sse-polling", "dns-rebinding-protection"];
const fixtures = [
  "logging-set-level",
  "completion-complete",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-with-logging",
  "tools-call-error",
  "tools-call-with-progress",
  "tools-call-sampling",
  "tools-call-elicitation",
  "json-schema-2020-12",
  "elicitation-sep1034-defaults",
  "elicitation-sep1330-enums",
  "resources-list",
  "resources-read-text",
  "resources-read-binary",
  "resources-templates-read",
  "resources-subscribe",
  "resources-unsubscribe",
  "prompts-list",
  "prompts-get-simple",
  "prompts-get-with-args",
  "prompts-get-embedded-resource",
  "prompts-get-with-image",
];

let mock: RunningMock;
let server: Awaited<ReturnType<typeof httpServer>>;
let cwd: string;
beforeAll(async () => {
  mock = await startMock({ port: 0, timeScale: 0 });
  server = await httpServer(["--base-url", mock.baseUrls.scraper as string, "--max-credits", "10"]);
  cwd = mkdtempSync(join(tmpdir(), "mcp-conformance-"));
});
afterAll(async () => {
  await server?.stop();
  await mock?.close();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

/** The report without its colours (ESC [ … m). */
const strip = (text: string) => text.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g"), "");

describe("@modelcontextprotocol/conformance against the Streamable HTTP server", () => {
  it("knows every server scenario of this release, as applicable or as a reference-server fixture", async () => {
    const { stdout } = await run(process.execPath, [conformance, "list", "--server"], { cwd });
    const listed = [...strip(stdout).matchAll(/^\s+- (\S+)$/gm)].map((match) => match[1]);
    expect(listed.sort()).toEqual([...applicable, ...fixtures].sort());
  });

  it.each(applicable)("%s passes with no failure", async (scenario) => {
    const { stdout } = await run(process.execPath, [conformance, "server", "--url", server.url, "--scenario", scenario], { cwd, timeout: 60_000 }).catch(
      (error: { stdout: string; code: number }) => ({ stdout: `${error.stdout}\nexit ${error.code}` }),
    );
    const report = strip(stdout);
    console.log(`${scenario}: ${/Passed: .*/.exec(report)?.[0]}`);
    expect(report).toMatch(/Passed: \d+\/\d+, 0 failed/);
    expect(report).not.toContain("FAILURE");
  });
});
