// The connect client against the sandbox: the key's prefix selects the environment, scraper keys are refused, and a 429
// carries Retry-After. The reference documents no connect path, so every call answers the sandbox's 404.
import { ConnectApiError, ConnectInputError, createConnectClient } from "@content-scraper/connect";
import type { RunningMock } from "@content-scraper/mock";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startSandbox } from "./support.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startSandbox();
});
afterAll(() => mock.close());

const clientFor = (apiKey: string) => createConnectClient({ apiKey, baseUrl: mock.baseUrls.connect, retry: { maxRetries: 0 } });

async function apiError(call: Promise<unknown>): Promise<ConnectApiError> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ConnectApiError);
  return error as ConnectApiError;
}

it.each([
  ["sk_test_contract", "sandbox"],
  ["sk_live_contract", "production"],
] as const)("%s reaches the %s environment on the same base URL", async (key, environment) => {
  const client = clientFor(key);
  expect(client.environment).toBe(environment);
  const error = await apiError(client.request("GET", "/accounts"));
  expect(error.status).toBe(404);
  expect(error.body).toMatchObject({ error: { code: "not_found", environment } });
});

it("refuses a scraper key in the client, and the sandbox refuses it with 401", async () => {
  expect(() => clientFor("scrape_live_contract")).toThrow(ConnectInputError);
  const response = await fetch(`${mock.baseUrls.connect}/accounts`, { headers: { "x-api-key": "scrape_live_contract" } });
  expect(response.status).toBe(401);
});

it("surfaces Retry-After on a 429 at the general limit (100 a minute)", async () => {
  const client = clientFor("sk_test_contract_limited");
  let error: ConnectApiError | undefined;
  for (let index = 0; index < 150 && error?.status !== 429; index++) error = await apiError(client.request("GET", "/accounts"));
  expect(error?.status).toBe(429);
  expect(error?.retryAfterMs).toBeGreaterThanOrEqual(1000);
});
