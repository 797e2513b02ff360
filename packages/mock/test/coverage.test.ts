// The coverage matrix holds: every documented response of every operation of every surface has a row, every row's
// request reaches its status in a real sandbox (its body valid against the description), and the README and the
// sandbox guide show the matrix as it is.
import { readFileSync } from "node:fs";
import { validateResponse as validatePlatform } from "@content-scraper/validators/platform";
import { validateResponse as validateLegacy } from "@content-scraper/validators/platform-legacy";
import { validateResponse as validateScraper } from "@content-scraper/validators/scraper";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CoverageRow, coverage, documentedStatuses, type ProbeRequest, renderCoverage } from "../src/coverage.js";
import type { RunningMock } from "../src/index.js";
import { start } from "./support.js";

const rows = coverage();
const validators = { scraper: validateScraper, platform: validatePlatform, platformLegacy: validateLegacy };

let mock: RunningMock;
beforeAll(async () => {
  mock = await start({ seed: "coverage" });
});
afterAll(() => mock.close());

/** `{{name}}`: the first field of that name in the previous answer, however deep. */
function fill(text: string | undefined, previous: unknown): string | undefined {
  const find = (value: unknown, name: string): unknown => {
    if (typeof value !== "object" || value === null) return undefined;
    if (name in value) return (value as Record<string, unknown>)[name];
    for (const child of Object.values(value)) {
      const found = find(child, name);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return text?.replace(/\{\{(\w+)\}\}/g, (_match, name: string) => encodeURIComponent(String(find(previous, name) ?? "")));
}

async function send(request: ProbeRequest, previous: unknown) {
  const response = await fetch(mock.url + fill(request.path, previous), {
    method: request.method,
    headers: request.headers,
    body: fill(request.body, previous),
    redirect: "manual",
  });
  const text = await response.text();
  const contentType = response.headers.get("content-type") ?? "";
  return { response, contentType, body: contentType.includes("json") ? JSON.parse(text) : text };
}

/** Runs a row's control calls and requests, then its own request. */
async function reach(row: CoverageRow) {
  let previous: unknown;
  for (const step of row.probe.before ?? []) {
    if ("inject" in step) await mock.inject({ ...step.inject, surface: row.surface });
    else if ("advanceSeconds" in step) await mock.advance(step.advanceSeconds);
    else previous = (await send(step.request, previous)).body;
  }
  return send(row.probe, previous);
}

describe("every documented response", () => {
  for (const [api, surface] of [["scraper", "scraper"], ["platform", "platform"], ["platform-legacy", "platformLegacy"]] as const) {
    for (const [operation, statuses] of documentedStatuses(api)) {
      it.each(statuses)(`${surface} ${operation} %s has a row`, (documented) => {
        expect(rows.some((row) => row.surface === surface && row.operation === operation && row.documented === documented)).toBe(true);
      });
    }
  }
});

describe("every row", () => {
  it.each(rows.map((row) => [`${row.surface} ${row.operation}: ${row.documented} (${row.how})`, row] as const))("%s is reached", async (_name, row) => {
    const { response, body, contentType } = await reach(row);
    expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(row.status);
    const validate = validators[row.surface] as (id: string, status: number, body: unknown, options: { contentType: string }) => { valid: boolean };
    if (body !== "" && !contentType.includes("html")) expect(validate(row.operation, row.status, body, { contentType })).toEqual({ valid: true });
    expect(row.check?.(body)).toBeUndefined();
  });
});

it.each(["../README.md", "../../../docs/pages/guides/sandbox.md"])("%s shows the matrix as generated", (file) => {
  const text = readFileSync(new URL(file, import.meta.url), "utf8");
  const shown = /<!-- coverage:start[^>]*-->\n([\s\S]*?)\n<!-- coverage:end -->/.exec(text)?.[1];
  expect(shown, "run `pnpm --filter @content-scraper/mock coverage` to update it").toBe(renderCoverage(rows));
});
