// Test support: a real sandbox on a loopback port, a raw HTTP caller that checks every body it gets against the
// description, and the description's own request examples.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { OperationBehaviour, OperationRules } from "@content-scraper/codegen";
import { validateResponse } from "@content-scraper/validators/scraper";
import { expect } from "vitest";
import { operationBehaviour } from "../src/generated/scraper.operations.js";
import { scraperOperations as operations } from "../src/scraper/rules.js";
import { type MockOptions, type RunningMock, startMock } from "../src/index.js";

export { operations };
export type OperationId = keyof typeof operations;
export const operationIds = Object.keys(operations) as OperationId[];
const behaviours: Readonly<Record<string, OperationBehaviour>> = operationBehaviour;
/** An operation's rules and behaviour, widened from the generated literal types to what every operation may have. */
export const rulesOf = (id: OperationId): OperationRules & OperationBehaviour => ({ ...operations[id], ...behaviours[id] });

type Deref = { paths: Record<string, { post: { requestBody?: { content: Record<string, { example?: unknown }> } } }> };
const document = JSON.parse(readFileSync(createRequire(import.meta.url).resolve("@content-scraper/spec/scraper.deref.json"), "utf8")) as Deref;

/** The description's request example of an operation. */
export function requestExample(id: OperationId): unknown {
  return document.paths[operations[id].path]?.post.requestBody?.content["application/json"]?.example;
}

export const start = (options: MockOptions = {}): Promise<RunningMock> => startMock({ port: 0, timeScale: 0, ...options });

export interface Answer {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or the text of a non-JSON one. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field; `call` has checked them against the description.
  body: any;
}

let keys = 0;
/** A key no other test uses: a fresh account with a full balance and a full bucket. */
export const freshKey = (name = "test") => `scrape_live_${name}_${++keys}_${process.pid}`;

/**
 * POSTs to the sandbox and checks the answer against the description: the body validates against the operation's
 * documented response for the status (an unknown path's ENDPOINT_NOT_FOUND against an operation's `default`).
 */
export async function call(
  mock: RunningMock,
  path: string,
  body: unknown,
  { key = freshKey(), headers = {}, raw = false }: { key?: string | null; headers?: Record<string, string>; raw?: boolean } = {},
): Promise<Answer> {
  const response = await fetch(`${mock.baseUrls.scraper}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key === null ? {} : { "x-api-key": key }), ...headers },
    body: raw || body === undefined ? (body as string | undefined) : JSON.stringify(body),
  });
  const text = await response.text();
  const contentType = response.headers.get("content-type") ?? "";
  const parsed = contentType.includes("json") ? JSON.parse(text) : text;
  const id = Object.values(operations).find((rules) => rules.path === path)?.operationId;
  if (id || parsed?.error === "ENDPOINT_NOT_FOUND") {
    const result = validateResponse(id ?? "shortvideoProfile", id ? response.status : "default", parsed, { contentType });
    expect(result, `${path} ${response.status}: ${text.slice(0, 300)}`).toEqual({ valid: true });
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

export const charged = (answer: Answer) => Number(answer.headers.get("x-scraper-credits-charged"));
