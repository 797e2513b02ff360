import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ConnectApiError, ConnectInputError, ConnectTimeoutError, createConnectClient } from "../src/index.js";

type Handler = (response: ServerResponse) => void;
const received: Array<{ method: string; url: URL; headers: IncomingMessage["headers"]; body: string; at: number }> = [];
let handlers: Handler[] = [];
const server = createServer(async (incoming, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  received.push({ method: incoming.method ?? "", url: new URL(incoming.url ?? "/", "http://127.0.0.1"), headers: incoming.headers, body: Buffer.concat(chunks).toString(), at: performance.now() });
  const handler = handlers.length > 1 ? handlers.shift() : handlers[0];
  handler ? handler(response) : response.writeHead(500).end();
});
let baseUrl = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/embed`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);
function script(...next: Handler[]) {
  handlers = next;
  received.length = 0;
}
const answer =
  (status: number, body?: unknown, headers: Record<string, string> = {}): Handler =>
  (response) =>
    void response.writeHead(status, { "content-type": "application/json", ...headers }).end(body === undefined ? "" : JSON.stringify(body));

const live = "sk_live_51Hf0qLzXyZsecretpart";
const test = "sk_test_51Hf0qLzXyZsecretpart";

function inputError(create: () => unknown): ConnectInputError {
  try {
    create();
  } catch (error) {
    expect(error).toBeInstanceOf(ConnectInputError);
    return error as ConnectInputError;
  }
  throw new Error("expected a ConnectInputError");
}

describe("the key picks the environment (x-key-environments)", () => {
  it("sk_live_ → production, sk_test_ → sandbox, on the same base URL", () => {
    expect(createConnectClient({ apiKey: live, baseUrl: "https://h/api/embed" }).environment).toBe("production");
    expect(createConnectClient({ apiKey: test, baseUrl: "https://h/api/embed" }).environment).toBe("sandbox");
  });

  it.each([
    ["a scraper key", "scrape_live_4f9c2a7be81d4c6f", /apiKey starts with scrape_live_: that is a scraper key\. The connect takes a connect key, which starts with sk_live_ or sk_test_/],
    ["a missing key", undefined, /apiKey is missing/],
    ["another prefix", "pk_live_4f9c2a7be81d4c6f", /not a connect key/],
    ["a bare prefix", "sk_test_", /not a connect key/],
  ])("refuses %s, saying which key is expected", (_name, apiKey, message) => {
    const error = inputError(() => createConnectClient({ apiKey: apiKey as string, baseUrl: "https://h/api/embed" }));
    expect(error.field).toBe("apiKey");
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain("4f9c2a7be81d4c6f");
  });

  it.each([
    [{ baseUrl: "nope" }, "baseUrl"],
    [{ retry: { maxRetries: 1.5 } }, "retry.maxRetries"],
    [{ timeoutMs: -1 }, "timeoutMs"],
  ])("%j is refused naming %s", (options, field) => {
    expect(inputError(() => createConnectClient({ apiKey: test, baseUrl: "https://h/api/embed", ...options })).field).toBe(field);
  });

  it("refuses to run in a browser unless told to, dangerously", () => {
    vi.stubGlobal("window", { document: {} });
    expect(inputError(() => createConnectClient({ apiKey: test, baseUrl: "https://h/api/embed" })).field).toBe("dangerouslyAllowBrowser");
    expect(createConnectClient({ apiKey: test, baseUrl: "https://h/api/embed", dangerouslyAllowBrowser: true }).environment).toBe("sandbox");
    vi.unstubAllGlobals();
  });
});

describe("request", () => {
  it("sends the key in x-api-key and JSON; resolves { data, meta } with the environment", async () => {
    script(answer(201, { id: "acct_1" }));
    const connect = createConnectClient({ apiKey: test, baseUrl });
    const { data, meta } = await connect.request<{ id: string }>("post", "/accounts/{id}/tokens", { pathParams: { id: "acct 1" }, query: { expand: "x" }, body: { a: 1 } });
    expect(received[0]).toMatchObject({ method: "POST", body: '{"a":1}' });
    expect(received[0]?.url.pathname).toBe("/api/embed/accounts/acct%201/tokens");
    expect(received[0]?.url.search).toBe("?expand=x");
    expect(received[0]?.headers["x-api-key"]).toBe(test);
    expect(data).toEqual({ id: "acct_1" });
    expect(meta).toMatchObject({ status: 201, attempts: 1, environment: "sandbox" });
  });

  it("waits exactly Retry-After on a 429, then succeeds", async () => {
    script(answer(429, undefined, { "retry-after": "1" }), answer(200, { ok: true }));
    const { meta } = await createConnectClient({ apiKey: live, baseUrl }).request("GET", "/transfers");
    const waited = (received[1]?.at ?? 0) - (received[0]?.at ?? 0);
    expect(meta.attempts).toBe(2);
    expect(waited).toBeGreaterThanOrEqual(995);
    expect(waited).toBeLessThan(1900);
  });

  it("gives up after maxRetries with a ConnectApiError carrying retryAfterMs", async () => {
    script(answer(429, undefined, { "retry-after": "0" }));
    const error = await createConnectClient({ apiKey: live, baseUrl, retry: { maxRetries: 2 } }).request("GET", "/transfers").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectApiError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 0, operation: "GET /transfers" });
    expect(received).toHaveLength(3);
  });

  it("retries nothing else: a 500 is a ConnectApiError with the body, at once", async () => {
    script(answer(500, { error: "boom" }, { "retry-after": "0" }), answer(200, {}));
    const error = await createConnectClient({ apiKey: live, baseUrl }).request("POST", "/transfers", { body: {} }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "ConnectApiError", status: 500, body: { error: "boom" } });
    expect(received).toHaveLength(1);
  });

  it("times out without retrying", async () => {
    script(() => undefined);
    const error = await createConnectClient({ apiKey: live, baseUrl, timeoutMs: 50 }).request("GET", "/x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectTimeoutError);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(received.length).toBeLessThanOrEqual(1);
  });

  it("api: the openapi-fetch client with the same key and Retry-After handling", async () => {
    script(answer(429, undefined, { "retry-after": "0" }), answer(200, { ok: true }));
    const connect = createConnectClient({ apiKey: test, baseUrl });
    const { response } = await (connect.api as unknown as { GET(path: string): Promise<{ response: Response }> }).GET("/accounts");
    expect(response.status).toBe(200);
    expect(received.map((request) => request.headers["x-api-key"])).toEqual([test, test]);
  });
});

describe("the key never leaks", () => {
  it("is absent from util.inspect, JSON.stringify, errors and logs", async () => {
    const lines: string[] = [];
    const log = (message: string, details?: unknown) => void lines.push(message, JSON.stringify(details));
    const connect = createConnectClient({ apiKey: live, baseUrl, logger: { debug: log, warn: log } });
    script(answer(429, undefined, { "retry-after": "0" }), answer(401, { error: "unauthorized" }));
    const error = await connect.request("GET", "/accounts").catch((e: unknown) => e);
    const secret = live.slice(8);
    for (const text of [inspect(connect, { depth: 10, showHidden: true }), JSON.stringify(connect), inspect(error, { depth: 10 }), JSON.stringify(error), lines.join("\n")]) {
      expect(text).not.toContain(secret);
    }
    expect(JSON.parse(JSON.stringify(connect))).toEqual({ baseUrl, environment: "production" });
    expect(lines.join("\n")).toContain("connect: GET /accounts answered 429; retry 1 of 4");
  });
  it("builds an error's message from the parsed, redacted body: one JSON escape hides nothing", async () => {
    // Written by hand, as a server that escapes one character would: the raw text never holds the key as it is.
    const escaped = `\\u0073${live.slice(1)}`;
    script((response) => void response.writeHead(404, { "content-type": "application/json" }).end(`{"error":"no account for key ${escaped}","note":"caf\\u00e9"}`));
    const error = (await createConnectClient({ apiKey: live, baseUrl }).request("GET", "/accounts").catch((e: unknown) => e)) as ConnectApiError;
    expect(error.message).toBe('GET /accounts failed with HTTP 404: {"error":"no account for key [redacted]","note":"café"}');
    expect(error.body).toEqual({ error: "no account for key [redacted]", note: "café" });
    for (const text of [error.message, String(error), JSON.stringify(error), inspect(error, { depth: 10 })]) expect(text).not.toContain(live.slice(12));
  });

  it("redacts the headers of a success's meta; its data comes as the service sent it", async () => {
    script(answer(200, { id: live }, { "x-request-id": `req_${encodeURIComponent(live)}` }));
    const { data, meta } = await createConnectClient({ apiKey: live, baseUrl }).request("GET", "/accounts");
    expect(meta.headers.get("x-request-id")).toBe("req_[redacted]");
    expect(data).toEqual({ id: live });
  });
});
