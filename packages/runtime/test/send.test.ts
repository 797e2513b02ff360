import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Logger, retryOn429, type SendConfig, send } from "../src/index.js";
import { answer, startServer } from "./server.js";

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

class Timeout extends Error {}
class Broken extends Error {}

const config = (overrides: Partial<SendConfig> = {}): SendConfig => ({
  fetch: globalThis.fetch,
  logger: {},
  label: "test",
  maxRetries: 4,
  retryDelay: retryOn429,
  timeoutError: (name, ms) => new Timeout(`${name} ${ms}`),
  connectionError: (name, cause) => new Broken(name, { cause }),
  ...overrides,
});
const post = () => ({ url: `${server.origin}/x`, method: "POST", headers: { "content-type": "application/json" }, body: '{"a":1}' });

describe("send", () => {
  it("returns a success with its whole body, after one attempt", async () => {
    server.script(answer(200, "hello"));
    const { response, text, attempts } = await send(config(), post(), { name: "op" });
    expect([response.status, text, attempts]).toEqual([200, "hello", 1]);
  });

  it("waits exactly Retry-After on a 429 and sends the same method, headers and body again", async () => {
    server.script(answer(429, "", { "retry-after": "1" }), answer(200, "ok"));
    const { attempts } = await send(config(), post(), { name: "op" });
    const [first, second] = server.requests;
    expect(attempts).toBe(2);
    const waited = (second?.at ?? 0) - (first?.at ?? 0);
    expect(waited).toBeGreaterThanOrEqual(995);
    expect(waited).toBeLessThan(1900);
    expect(second).toMatchObject({ method: "POST", body: '{"a":1}' });
    expect(second?.headers["content-type"]).toBe("application/json");
  });

  it("returns a 429 without Retry-After, and any other error, at once", async () => {
    server.script(answer(429));
    expect((await send(config(), post(), { name: "op" })).attempts).toBe(1);
    server.script(answer(503, "", { "retry-after": "0" }));
    expect((await send(config(), post(), { name: "op" })).response.status).toBe(503);
    expect(server.requests).toHaveLength(1);
  });

  it("stops after maxRetries retries and returns the last answer", async () => {
    server.script(answer(429, "limited", { "retry-after": "0" }));
    const result = await send(config({ maxRetries: 2 }), post(), { name: "op" });
    expect([result.response.status, result.text, result.attempts]).toEqual([429, "limited", 3]);
    expect(server.requests).toHaveLength(3);
  });

  it("computes headers for every attempt, and calls the hooks", async () => {
    server.script(answer(429, "", { "retry-after": "0" }), answer(200));
    let n = 0;
    const seen: number[] = [];
    await send(
      config({
        headers: () => ({ authorization: `Bearer t${++n}` }),
        beforeAttempt: async () => void seen.push(-1),
        afterResponse: (response) => void seen.push(response.status),
      }),
      post(),
      { name: "op" },
    );
    expect(server.requests.map((request) => request.headers.authorization)).toEqual(["Bearer t1", "Bearer t2"]);
    expect(seen).toEqual([-1, 429, -1, 200]);
  });

  it("logs attempts and retries with the details given, never the headers", async () => {
    server.script(answer(429, "", { "retry-after": "0" }), answer(200));
    const lines: string[] = [];
    const log = (message: string, details?: unknown) => void lines.push(`${message} ${JSON.stringify(details)}`);
    const logger: Logger = { debug: log, warn: log };
    await send(config({ logger, headers: () => ({ authorization: "Bearer secret-token" }) }), post(), { name: "op", logDetails: { operationId: "op" } });
    expect(lines.join("\n")).toContain("test: op answered 429; retry 1 of 4 in 0 ms");
    expect(lines.join("\n")).toContain('"operationId":"op"');
    expect(lines.join("\n")).not.toContain("secret-token");
  });

  it("throws the timeout error without retrying", async () => {
    server.script(() => undefined);
    await expect(send(config(), post(), { name: "op", timeoutMs: 50 })).rejects.toBeInstanceOf(Timeout);
    // The one attempt may not even have reached a busy server; a retry would be a second request.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(server.requests.length).toBeLessThanOrEqual(1);
  });

  it("throws the connection error on a refused connection", async () => {
    const error = await send(config(), { url: "http://127.0.0.1:9/x", method: "GET" }, { name: "op" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Broken);
  });

  it("rejects with the caller's reason when aborted while waiting for Retry-After", async () => {
    server.script(answer(429, "", { "retry-after": "30" }));
    const controller = new AbortController();
    const reason = new Error("enough");
    const pending = send(config(), post(), { name: "op", signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});
