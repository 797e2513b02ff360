// The certification workflows that ship in @content-scraper/spec (spec/workflows/*.arazzo.yaml), run by `redocly respect`
// exactly as a partner runs them, against a sandbox started here: every workflow passes, and every answer it received is
// valid against the description (the validators read the `2XX` ranges respect's own checks cannot). Then each workflow
// is run through a loopback proxy that breaks one promise of the reference, and must fail at the step that holds it.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { RunningMock } from "@content-scraper/mock";
import { startScriptedServer } from "@content-scraper/test-server";
import type { ValidationResult } from "@content-scraper/validators";
import { validateResponse as validatePlatform } from "@content-scraper/validators/platform";
import { validateResponse as validateLegacy } from "@content-scraper/validators/platform-legacy";
import { validateResponse as validateScraper } from "@content-scraper/validators/scraper";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { startSandbox } from "./support.js";

const require = createRequire(import.meta.url);
const cli = require.resolve("@redocly/cli/bin/cli.js");
const run = promisify(execFile);

type Surface = "scraper" | "platform" | "platform-legacy";
type Validate = (operationId: never, status: number, body: unknown, options: { contentType: string }) => ValidationResult;

// What a partner passes to respect, per file (the spec README and the sandbox guide show the same commands). The OAuth
// APIs' success statuses are ranges (`2XX`), which respect's status-code and schema checks do not match.
const ranges = '{"STATUS_CODE_CHECK":"off","SCHEMA_CHECK":"off"}';
// Keys of the test's own, which respect must mask wherever it reports (the workflows mark them `format: password`).
const apiKey = `scrape_live_workflows_${process.pid}`;
const companyKey = `company_workflows_${process.pid}`;
const surfaces: Record<Surface, { servers: (origin: string) => object; inputs: (origin: string) => object; severity?: string; validate: Validate }> = {
  scraper: { servers: (origin) => ({ scraper: `${origin}/api/v1` }), inputs: (origin) => ({ sandboxUrl: origin, apiKey }), validate: validateScraper as Validate },
  platform: {
    servers: (origin) => ({ platform: `${origin}/api/oauth/v1`, host: origin }),
    inputs: (origin) => ({ redirectUri: `${origin}/__sandbox/oauth/callback` }),
    severity: ranges,
    validate: validatePlatform as Validate,
  },
  "platform-legacy": {
    servers: (origin) => ({ "platform-legacy": `${origin}/api/v1` }),
    inputs: () => ({ apiKey: companyKey, scraperKey: apiKey }),
    severity: ranges,
    validate: validateLegacy as Validate,
  },
};

const fileOf = (surface: Surface) => require.resolve(`@content-scraper/spec/workflows/${surface}.arazzo.yaml`);

type Step = { operationId?: string; "x-operation"?: unknown; stepId: string };
type Arazzo = { workflows: { workflowId: string; steps: Step[] }[] };
const definitions = new Map<Surface, Arazzo>((Object.keys(surfaces) as Surface[]).map((surface) => [surface, parse(readFileSync(fileOf(surface), "utf8"))]));

type Check = { name: string; passed: boolean; severity: string; condition?: string };
type Executed = {
  type: "step" | "workflow";
  workflowId: string;
  stepId?: string;
  executedSteps?: Executed[];
  response?: { statusCode: number; body: unknown; headers: Record<string, string> };
  checks?: Check[];
  /** Set on an attempt that a retry action followed: its checks do not count, as in respect's own verdict. */
  retriesLeft?: number;
};
const flatten = (entries: Executed[]): Executed[] => entries.flatMap((entry) => (entry.type === "workflow" ? flatten(entry.executedSteps ?? []) : [entry]));

interface Outcome {
  exitCode: number;
  /** What respect printed, and the JSON report, as text. */
  printed: string;
  steps: Executed[];
  /** `workflow/step: check (condition)` of every failed check that counts (severity error). */
  failures: string[];
}

/** Runs a workflow file with respect against `origin`, as the docs tell a partner to; `workflow` runs one of them. */
async function respect(surface: Surface, origin: string, workflow?: string): Promise<Outcome> {
  const { servers, inputs, severity } = surfaces[surface];
  const dir = mkdtempSync(join(tmpdir(), "respect-"));
  const report = join(dir, "report.json");
  const args = [cli, "respect", fileOf(surface), "--server", JSON.stringify(servers(origin)), "--input", JSON.stringify(inputs(origin)), "--json-output", report];
  if (severity) args.push("--severity", severity);
  if (workflow) args.push("--workflow", workflow);
  try {
    const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };
    const { exitCode, output } = await run(process.execPath, args, { env, timeout: 120_000 }).then(
      ({ stdout, stderr }) => ({ exitCode: 0, output: stdout + stderr }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({ exitCode: error.code ?? 1, output: `${error.stdout ?? ""}${error.stderr ?? ""}` }),
    );
    const json = readFileSync(report, "utf8");
    const { files } = JSON.parse(json) as { files: Record<string, { executedWorkflows: Executed[] }> };
    const steps = flatten(Object.values(files).flatMap((file) => file.executedWorkflows));
    const failures = steps.flatMap((step) =>
      (step.retriesLeft ? [] : (step.checks ?? []))
        .filter((check) => !check.passed && check.severity === "error")
        .map((check) => `${step.workflowId}/${step.stepId}: ${check.name}${check.condition ? ` (${check.condition})` : ""}`),
    );
    return { exitCode, printed: output + json, steps, failures };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The operationId a step calls, from the workflow file; undefined for the sandbox's control API (`x-operation`). */
function operationOf(surface: Surface, step: Executed): string | undefined {
  const definition = definitions.get(surface)?.workflows.find((workflow) => workflow.workflowId === step.workflowId)?.steps.find((s) => s.stepId === step.stepId);
  return definition?.operationId?.split(".").at(-1);
}

describe("the docs", () => {
  const version = (require("@redocly/cli/package.json") as { version: string }).version;
  const pages = {
    "the spec README": join(require.resolve("@content-scraper/spec/package.json"), "../README.md"),
    "the sandbox guide": new URL("../../../docs/pages/guides/sandbox.md", import.meta.url).pathname,
  };
  it.each(Object.entries(pages))("%s names every workflow and the Redocly CLI version they are tested with", (_page, file) => {
    const text = readFileSync(file, "utf8");
    expect(text).toContain(`npx @redocly/cli@${version} respect`);
    const workflows = [...definitions.values()].flatMap((definition) => definition.workflows.map((workflow) => workflow.workflowId));
    expect(workflows.filter((workflow) => !text.includes(`\`${workflow}\``))).toEqual([]);
  });
});

let mock: RunningMock;
beforeAll(async () => {
  mock = await startSandbox({ seed: "workflows" });
});
afterAll(() => mock.close());
// Each run starts from a fresh sandbox state: a workflow that fails half-way leaves its key's balance or bucket behind.
beforeEach(() => mock.reset());

describe.each(Object.keys(surfaces) as Surface[])("spec/workflows/%s.arazzo.yaml", (surface) => {
  it("passes against the sandbox, every answer valid against the description", { timeout: 120_000 }, async () => {
    const outcome = await respect(surface, mock.url);
    expect(outcome.failures).toEqual([]);
    expect(outcome.exitCode).toBe(0);
    for (const key of [apiKey, companyKey]) expect(outcome.printed).not.toContain(key);
    const workflows = new Set(outcome.steps.map((step) => step.workflowId));
    expect([...workflows].sort()).toEqual(definitions.get(surface)?.workflows.map((workflow) => workflow.workflowId).sort());
    const invalid = outcome.steps.flatMap((step) => {
      const operationId = operationOf(surface, step);
      // `/authorize` answers with a redirect, which respect follows: what it records is the redirect URI's page. An
      // attempt that was retried keeps its status in the report but shares its body with the retry's answer.
      if (!operationId || operationId === "authorizeClient" || !step.response || step.retriesLeft) return [];
      const { statusCode, body, headers } = step.response;
      // respect records an empty body (revocation's) as `{}`: there is nothing to validate.
      if (headers["content-length"] === "0") return [];
      const result = surfaces[surface].validate(operationId as never, statusCode, body, { contentType: headers["content-type"] ?? "" });
      return result.valid ? [] : [`${step.workflowId}/${step.stepId} ${statusCode}: ${result.errors.map((error) => error.message).join("; ")}`];
    });
    expect(invalid).toEqual([]);
  });
});

/** One answer as it passes through the proxy, which a broken promise rewrites. */
interface Answer {
  request: { method: string; path: string; body: string };
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A proxy in front of the sandbox on loopback, rewriting each answer with `breakPromise`. */
async function brokenSandbox(breakPromise: (answer: Answer) => void) {
  const server = await startScriptedServer();
  server.script(async (request, response) => {
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter((entry): entry is [string, string] => typeof entry[1] === "string" && !["host", "connection", "content-length"].includes(entry[0])),
    );
    const upstream = await fetch(mock.url + request.url.pathname + request.url.search, {
      method: request.method,
      headers,
      body: request.method === "GET" || request.method === "HEAD" ? undefined : request.body,
      redirect: "manual",
    });
    const answer: Answer = {
      request: { method: request.method, path: request.path, body: request.body },
      status: upstream.status,
      headers: Object.fromEntries([...upstream.headers].filter(([name]) => !["content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive"].includes(name))),
      body: await upstream.text(),
    };
    breakPromise(answer);
    response.writeHead(answer.status, answer.headers).end(answer.body);
  });
  return server;
}

/** The parts of a scraper success a broken promise rewrites. */
type Success = { data: { posts: Record<string, unknown>[] }; meta: Record<string, unknown> };
const rewriteJson = (answer: Answer, change: (body: Success) => void) => {
  const body = JSON.parse(answer.body) as Success;
  change(body);
  answer.body = JSON.stringify(body);
};
const isPath = (answer: Answer, suffix: string) => answer.request.path.endsWith(suffix);

// Each promise a workflow holds, broken on purpose: [surface, workflow, the step that must fail, how the answer breaks it].
const broken: [Surface, string, string, string, (answer: Answer) => void][] = [
  [
    "scraper",
    "catalogWalk",
    "page",
    "a cursor passed back verbatim refused (reference 4.1.6: a stale cursor is not even an error)",
    (answer) => {
      if (!isPath(answer, "/posts") || !answer.request.body.includes('"cursor"')) return;
      answer.status = 400;
      answer.body = JSON.stringify({ error: "INVALID_INPUT", message: "`cursor` is invalid", request_id: "req_proxy", field: "cursor", reason: "proxy" });
    },
  ],
  [
    "scraper",
    "profilePostsPost",
    "post",
    "the submitted URL not echoed verbatim in postPage",
    (answer) => {
      if (isPath(answer, "/post") && answer.status === 200) rewriteJson(answer, (body) => {
          for (const post of body.data.posts) post.postPage = "https://elsewhere.example/p";
        });
    },
  ],
  [
    "scraper",
    "billedNotFound",
    "notFound",
    "a confirmed not-found charged nothing",
    (answer) => {
      if (answer.status === 404) answer.headers["x-scraper-credits-charged"] = "0";
    },
  ],
  [
    "scraper",
    "ledger",
    "lastLookup",
    "a charge reported as 2 (header and meta alike) while the balance falls by 1",
    (answer) => {
      if (!isPath(answer, "/profile") || answer.status !== 200) return;
      answer.headers["x-scraper-credits-charged"] = "2";
      rewriteJson(answer, (body) => Object.assign(body.meta, { credits_charged: 2 }));
    },
  ],
  [
    "scraper",
    "rateLimitRetryAfter",
    "bucketSpent",
    "a 429 without Retry-After",
    (answer) => {
      if (answer.status === 429) delete answer.headers["retry-after"];
    },
  ],
  [
    "platform",
    "authorizationCodeWithPkce",
    "revokedRefused",
    "a 401 challenge without the scope to request",
    (answer) => {
      const challenge = answer.headers["www-authenticate"];
      if (answer.status === 401 && challenge) answer.headers["www-authenticate"] = challenge.replace(/, scope="[^"]*"/, "");
    },
  ],
  [
    "platform",
    "idempotentReplay",
    "conflict",
    "the same Idempotency-Key with another body accepted",
    (answer) => {
      if (answer.status !== 409) return;
      answer.status = 200;
      answer.body = "{}";
    },
  ],
  [
    "platform-legacy",
    "companyKey",
    "otherSurfaceKey",
    "a 401 without the rate-limit headers every answer carries",
    (answer) => {
      if (answer.status !== 401) return;
      for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) delete answer.headers[name];
    },
  ],
];

describe("against a sandbox that breaks a promise", () => {
  it.each(broken)("%s %s fails at %s: %s", { timeout: 120_000 }, async (surface, workflow, step, _promise, breakPromise) => {
    const proxy = await brokenSandbox(breakPromise);
    try {
      const outcome = await respect(surface, proxy.origin, workflow);
      expect(outcome.exitCode).not.toBe(0);
      expect(outcome.failures.map((failure) => failure.split(":")[0])).toContain(`${workflow}/${step}`);
    } finally {
      await proxy.close();
    }
  });

  it("covers every workflow", () => {
    const all = [...definitions].flatMap(([surface, definition]) => definition.workflows.map((workflow) => `${surface} ${workflow.workflowId}`));
    expect(all.sort()).toEqual(broken.map(([surface, workflow]) => `${surface} ${workflow}`).sort());
  });
});
