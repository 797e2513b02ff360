// Contract-test support: the description's operations and request examples, clients whose every response is checked
// against the description by the validators, and the sandbox they talk to. One `<surface>.contract.test.ts` per surface
// with a client: scraper, platform (OAuth and key-based) and connect.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createScraperClient, type ScraperClient, type ScraperClientOptions } from "@content-scraper/client";
import { type FocusedClient, type FocusedPlatform, focusedClient } from "@content-scraper/client/focused";
import { validateResponses } from "@content-scraper/client/validate";
import { type MockOptions, type RunningMock, startMock } from "@content-scraper/mock";
import { validateResponse } from "@content-scraper/validators/scraper";

type Deref = {
  paths: Record<
    string,
    { post: { operationId: string; "x-paging"?: { mode: string }; requestBody?: { content: Record<string, { example?: unknown }> } } }
  >;
};
const document = JSON.parse(readFileSync(createRequire(import.meta.url).resolve("@content-scraper/spec/scraper.deref.json"), "utf8")) as Deref;

export interface Operation {
  operationId: string;
  path: string;
  platform: string;
  resource: string;
  /** The description's request example. */
  example: unknown;
  /** `x-paging.mode`, on listings. */
  paging: string | undefined;
}

/** Every scraper operation of the description. */
export const scraperOperations: Operation[] = Object.entries(document.paths).map(([path, { post }]) => {
  const [, platform = "", resource = ""] = /^\/scrape\/([^/]+)\/([^/]+)$/.exec(path) ?? [];
  const example = post.requestBody?.content["application/json"]?.example;
  return { operationId: post.operationId, path, platform, resource, example, paging: post["x-paging"]?.mode };
});
const byPath = new Map(scraperOperations.map((operation) => [operation.path, operation]));

/** Problems found in answers since the last `takeProblems()`: each names the request and the path in the body. */
const problems: string[] = [];
export const takeProblems = () => problems.splice(0);
let checked = 0;
export const checkedResponses = () => checked;

/** `fetch`, checking every answer's body against the operation's documented response for its status. */
function checkingFetch(baseUrl: string): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const operation = byPath.get(url.slice(baseUrl.length));
    if (operation) {
      const contentType = response.headers.get("content-type") ?? "";
      const text = await response.clone().text();
      const body = contentType.includes("json") ? JSON.parse(text) : text;
      const result = validateResponse(operation.operationId as Parameters<typeof validateResponse>[0], response.status, body, { contentType });
      checked++;
      if (!result.valid) problems.push(`${operation.operationId} ${response.status}: ${result.errors.map((error) => error.message).join("; ")}`);
    }
    return response;
  };
}

let keys = 0;
export const freshKey = () => `scrape_live_contract_${++keys}_${process.pid}`;

/**
 * A client on its own sandbox account: responses validated by the client (`validateResponses`) and by `checkingFetch`,
 * retries fast (the backoff schedule scaled down to milliseconds).
 */
export function clientFor(mock: RunningMock, options: ScraperClientOptions = {}): ScraperClient {
  const baseUrl = mock.baseUrls.scraper as string;
  return createScraperClient({
    apiKey: freshKey(),
    baseUrl,
    validateResponses,
    fetch: checkingFetch(baseUrl),
    ...options,
    retry: { baseDelayMs: 1, maxDelayMs: 20, ...options.retry },
  });
}

export const startSandbox = (options: MockOptions = {}): Promise<RunningMock> => startMock({ port: 0, timeScale: 0, ...options });

const camelCase = (name: string) => name.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/** Calls an operation through the client's own method for it, with the description's request example. */
export function invoke(client: ScraperClient, operation: Operation) {
  const { platform, resource, example } = operation;
  const body = (example ?? {}) as Record<string, never>;
  // biome-ignore lint/suspicious/noExplicitAny: the operation is chosen at run time; each method's own types are tested in the client.
  const scraper = client as any;
  switch (resource) {
    case "profile":
      return scraper.profile(platform, body.username);
    case "posts":
      return scraper.posts(platform, body.username, { contentType: body.contentType });
    case "post":
      return scraper.post(platform, body.url, { includeTranscript: body.include_transcript, includeComments: body.include_comments });
    case "audience":
      return scraper.audience(platform, body);
    default:
      return focusedClient(client, platform as FocusedPlatform)[camelCase(resource) as keyof FocusedClient<FocusedPlatform>](example as never);
  }
}
