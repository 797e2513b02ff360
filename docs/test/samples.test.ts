// Every request sample of the reference runs against the sandbox, as an integrator would paste it: curl and Python in
// their own processes, the TypeScript modules imported as they are. Each must get the documented answer: a status the
// operation documents as success, and a body that matches the description (checked with the validators).
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { promisify } from "node:util";
import { deref } from "@content-scraper/codegen";
import { type RunningMock, startMock } from "@content-scraper/mock";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { environment, languages, requests } from "../scripts/samples.mjs";
import { distDir, docsDir, operations, surfaces } from "../scripts/site.mjs";

const run = promisify(execFile);
const references = await surfaces();
const validators: Record<string, (id: string, status: number, body: unknown) => { valid: boolean; errors?: unknown }> = {
  scraper: (await import("@content-scraper/validators/scraper")).validateResponse as never,
  platform: (await import("@content-scraper/validators/platform")).validateResponse as never,
  "platform-legacy": (await import("@content-scraper/validators/platform-legacy")).validateResponse as never,
  connect: (await import("@content-scraper/validators/connect")).validateResponse as never,
};
const marker = "@@sample-status@@";
let mock: RunningMock;
let curlHome: string;
const sandboxEnv: Record<string, string> = {};

beforeAll(async () => {
  if (!existsSync(`${distDir}/samples`)) throw new Error("docs/dist is missing: run `pnpm build` first");
  // The default seed: the answers the reader's own sandbox gives.
  mock = await startMock({ port: 0, timeScale: 0 });
  const baseUrls: Record<string, string> = {
    scraper: mock.baseUrls.scraper,
    platform: mock.baseUrls.platform,
    "platform-legacy": mock.baseUrls.platformLegacy,
    connect: mock.baseUrls.connect,
  };
  // Each surface's variables as the quick start sets them: the sandbox's printed base URL and a credential it takes.
  const credentials: Record<string, string> = { scraper: "scrape_live_docs_samples", platform: "docs-samples-token", "platform-legacy": "company_docs_samples", connect: "sk_test_docs_samples" };
  for (const { api, description } of references) {
    const env = environment(api, description);
    sandboxEnv[env.baseUrl] = baseUrls[api] as string;
    sandboxEnv[env.credential] = credentials[api] as string;
  }
  // curl reads its options from $CURL_HOME/.curlrc as well: the sample stays as printed, and reports its status.
  curlHome = await mkdtemp(`${tmpdir()}/docs-samples-curl-`);
  await writeFile(`${curlHome}/.curlrc`, `write-out = "\\n${marker}%{http_code}"\n`);
});

afterAll(async () => {
  await mock?.close();
  if (curlHome) await rm(curlHome, { recursive: true, force: true });
});

/** The statuses an operation documents as success: `200`, or a range such as `2XX`. */
function documented(success: string[], status: number): boolean {
  return success.some((code) => code === String(status) || (code.endsWith("XX") && code[0] === String(status)[0]));
}

interface Sampled {
  operationId: string;
  success: string[];
  /** Whether the documented success has a body. */
  content: boolean;
}

function check(api: string, operation: Sampled, status: number, body: string, language: string) {
  expect(documented(operation.success, status), `${language}: ${operation.operationId} answered ${status}: ${body.slice(0, 300)}`).toBe(true);
  if (status >= 300) return;
  if (!operation.content) {
    expect(body, `${language}: ${operation.operationId} documents no body`).toBe("");
    return;
  }
  const parsed = JSON.parse(body);
  const result = (validators[api] as (id: string, status: number, body: unknown) => { valid: boolean; errors?: unknown })(operation.operationId, status, parsed);
  expect(result.errors ?? [], `${language}: ${operation.operationId}'s body does not match the description`).toEqual([]);
}

/** Each operation's documented success: its statuses, and whether it has a body. */
function sampled(description: { paths?: object }): Sampled[] {
  return operations(description).map((operation) => {
    const success = Object.keys(operation.responses).filter((status) => /^[23]/.test(status));
    const content = success.some((status) => {
      return Boolean(deref(description, operation.responses[status]).content);
    });
    return { operationId: operation.operationId as string, success, content };
  });
}

describe.each(references)("the $api reference's samples", ({ api, description }) => {
  // A surface without operations (connect, so far) has no samples to run.
  const ops = sampled(description);
  const file = (operationId: string, extension: string) => `${distDir}/samples/${api}/${operationId}.${extension}`;

  it("exist for every operation, in every language", async () => {
    const written = existsSync(`${distDir}/samples/${api}`) ? await readdir(`${distDir}/samples/${api}`) : [];
    const expected = ops.flatMap(({ operationId }) => languages.map(({ extension }) => `${operationId}.${extension}`));
    expect(written.sort()).toEqual(expected.sort());
  });

  it("say which variables they read, and say so where the body they send stands in for one that is not documented", () => {
    const wrong = requests(api, description).flatMap((request: { operationId: string; bodyNote?: string }) =>
      languages.flatMap(({ extension }) => {
        const text = readFileSync(file(request.operationId, extension), "utf8");
        const noted = /Not documented[^\n]*This sends the example body/.test(text);
        return /^(#|\/\/) Reads [A-Z_]+/.test(text) && noted === Boolean(request.bodyNote) ? [] : [`${request.operationId}.${extension}`];
      }),
    );
    expect(wrong).toEqual([]);
  });

  if (!ops.length) return;

  // curl and Python run in processes of their own: several at once.
  it.concurrent.each(ops)("curl: $operationId gets the documented answer", async (operation) => {
    const { stdout } = await run("sh", [file(operation.operationId, "sh")], { env: { ...process.env, ...sandboxEnv, CURL_HOME: curlHome } });
    const at = stdout.lastIndexOf(marker);
    expect(at, `curl printed no status: ${stdout}`).toBeGreaterThan(-1);
    const status = Number(stdout.slice(at + marker.length));
    // `-i` (on redirects) prints the head first: the body follows the blank line.
    const printed = stdout.slice(0, at).replace(/\n$/, "");
    const body = /^HTTP\//.test(printed) ? printed.slice(printed.indexOf("\r\n\r\n") + 4) : printed;
    check(api, operation, status, body, "curl");
  });

  it.concurrent.each(ops)("Python: $operationId gets the documented answer", async (operation) => {
    const { stdout } = await run("python3", [file(operation.operationId, "py")], { env: { ...process.env, ...sandboxEnv } });
    const [, status, body] = /^(\d{3}) ([\s\S]*)\n$/.exec(stdout) ?? [];
    check(api, operation, Number(status), status && Number(status) >= 300 ? "" : (body ?? ""), "Python");
  });

  for (const language of ["client", "fetch"] as const) {
    it.each(ops)(`TypeScript (${language}): $operationId gets the documented answer`, async (operation) => {
      // The sample's own fetch, recorded on its way back: the sample runs unchanged against the sandbox.
      const answers: { status: number; body: string }[] = [];
      const realFetch = globalThis.fetch;
      vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
        const response = await realFetch(input, init);
        answers.push({ status: response.status, body: await response.clone().text() });
        return response;
      });
      for (const [name, value] of Object.entries(sandboxEnv)) vi.stubEnv(name, value);
      const printed: unknown[][] = [];
      const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void printed.push(args));
      try {
        await import(file(operation.operationId, `${language}.ts`));
      } finally {
        log.mockRestore();
        vi.unstubAllGlobals();
        vi.unstubAllEnvs();
      }
      expect(answers, `${operation.operationId} sent one request`).toHaveLength(1);
      const [answer] = answers as [{ status: number; body: string }];
      check(api, operation, answer.status, answer.body, `TypeScript (${language})`);
      expect(printed.length, "the sample printed nothing").toBeGreaterThan(0);
    });
  }
});

describe("the quick start", () => {
  it("shows the answer its curl call gets from a fresh sandbox key", async () => {
    const guide = readFileSync(`${docsDir}pages/guides/quick-start.md`, "utf8");
    const [, name, shown] = /<!-- sample: (\S+\.sh) -->[\s\S]*?```json\n(.+)\n```/.exec(guide) ?? [];
    expect(name, "the quick start shows a curl sample and, after it, its answer").toBeDefined();
    const fresh = { ...sandboxEnv, SCRAPER_API_KEY: "scrape_live_docs_quick_start" };
    const { stdout } = await run("sh", [`${distDir}/samples/${name}`], { env: { ...process.env, ...fresh, CURL_HOME: curlHome } });
    const printed = stdout.slice(0, stdout.lastIndexOf(marker)).trim();
    // The request id is the request's own.
    const normalized = (text: string) => JSON.stringify({ ...JSON.parse(text), request_id: "req_…" });
    expect(normalized(printed)).toBe(normalized(shown as string));
  });
});
