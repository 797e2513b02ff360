import { type AddressInfo, createServer as createNetServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BodyTooLarge, describeRefusal, describeTooLarge, type Logger, type RedirectRefusal, retryOn429, type SendConfig, send } from "../src/index.js";
import { answer, hostile, startServer, withGlobalDispatcher } from "./server.js";

let server: Awaited<ReturnType<typeof startServer>>;
// Another port is another origin.
let elsewhere: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer();
  elsewhere = await startServer();
});
afterAll(async () => {
  await server.close();
  await elsewhere.close();
});

class Timeout extends Error {}
class Broken extends Error {}
class Aborted extends Error {
  constructor(
    readonly inFlight: boolean,
    options: ErrorOptions,
  ) {
    super("aborted", options);
  }
}
class Redirected extends Error {
  constructor(
    name: string,
    readonly refusal: RedirectRefusal,
  ) {
    super(describeRefusal(name, refusal));
  }
}
class TooLarge extends Error {
  constructor(
    name: string,
    readonly tooLarge: BodyTooLarge,
  ) {
    super(describeTooLarge(name, tooLarge));
  }
}

const config = (overrides: Partial<SendConfig> = {}): SendConfig => ({
  fetch: globalThis.fetch,
  logger: {},
  label: "test",
  maxRetries: 4,
  maxRetryWaitMs: 60_000,
  maxResponseBytes: 1024 * 1024,
  retryDelay: retryOn429,
  errors: {
    timeout: (call, ms) => new Timeout(`${call.name} ${ms}`),
    connection: (call, cause) => new Broken(call.name, { cause }),
    redirect: (call, refusal) => new Redirected(call.name, refusal),
    tooLarge: (call, tooLarge) => new TooLarge(call.name, tooLarge),
    aborted: (_call, reason, inFlight) => new Aborted(inFlight, { cause: reason }),
  },
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
        beforeAttempt: async () => void seen.push(-1),
        afterResponse: (response) => void seen.push(response.status),
      }),
      post(),
      { name: "op", authHeaders: () => ({ authorization: `Bearer t${++n}` }) },
    );
    expect(server.requests.map((request) => request.headers.authorization)).toEqual(["Bearer t1", "Bearer t2"]);
    expect(seen).toEqual([-1, 429, -1, 200]);
  });

  it("ages an answer's figures from when its request was handed to fetch, not from the call's start", async () => {
    // Pacing that holds the attempt 300 ms before it is sent.
    const heldMs = 300;
    const ages: number[] = [];
    server.script(answer(200));
    const { elapsedMs } = await send(
      config({ beforeAttempt: () => new Promise((resolve) => setTimeout(() => resolve(heldMs), heldMs)), afterResponse: (_response, ageMs) => void ages.push(ageMs) }),
      post(),
      { name: "op" },
    );
    expect(elapsedMs).toBeGreaterThanOrEqual(heldMs - 1);
    expect(ages).toHaveLength(1);
    // A timer may fire 1 ms early.
    expect(ages[0]).toBeLessThanOrEqual(elapsedMs - heldMs + 1);
  });

  it("logs attempts and retries with the details given, never the headers", async () => {
    server.script(answer(429, "", { "retry-after": "0" }), answer(200));
    const lines: string[] = [];
    const log = (message: string, details?: unknown) => void lines.push(`${message} ${JSON.stringify(details)}`);
    const logger: Logger = { debug: log, warn: log };
    await send(config({ logger }), post(), { name: "op", logDetails: { operationId: "op" }, authHeaders: () => ({ authorization: "Bearer secret-token" }) });
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

  it("ends an attempt on time while its request is not even dispatched (held by the application's dispatcher)", async () => {
    // Holds every request forever: only the timeout can end the call.
    await withGlobalDispatcher(
      () => ({ dispatch: () => true }),
      () => expect(send(config(), post(), { name: "op", timeoutMs: 100 })).rejects.toBeInstanceOf(Timeout),
    );
  });

  it("hands fetch a signal of its own per attempt, never the caller's, which many calls may share", async () => {
    const signals: Array<AbortSignal | null | undefined> = [];
    const nodeFetch = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      signals.push(init?.signal);
      return nodeFetch(input, init);
    };
    const shared = new AbortController().signal;
    try {
      server.script(() => undefined);
      await expect(send(config({ fetch: globalThis.fetch }), post(), { name: "op", timeoutMs: 100 })).rejects.toBeInstanceOf(Timeout);
      server.script(answer(200, "{}"));
      await send(config({ fetch: globalThis.fetch }), post(), { name: "op", timeoutMs: 1000, signal: shared });
    } finally {
      globalThis.fetch = nodeFetch;
    }
    expect(signals).toHaveLength(2);
    expect(signals[0]).toBeInstanceOf(AbortSignal);
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[1]).toBeInstanceOf(AbortSignal);
    expect(signals[1]).not.toBe(shared);
  });

  it("ends an attempt in flight at the caller's abort: the aborted error, in flight, the reason its cause", async () => {
    server.script(() => undefined);
    const controller = new AbortController();
    const reason = new Error("the agent cancelled");
    const pending = send(config({ fetch: globalThis.fetch }), post(), { name: "op", timeoutMs: 60_000, signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort(reason);
    await expect(pending).rejects.toMatchObject({ inFlight: true, cause: reason });
    // Aborted before the request is even dispatched (the dispatcher holds it): it ends all the same.
    const held = new AbortController();
    await withGlobalDispatcher(
      () => ({ dispatch: () => true }),
      async () => {
        const waiting = send(config({ fetch: globalThis.fetch }), post(), { name: "op", signal: held.signal });
        setTimeout(() => held.abort(reason), 50);
        await expect(waiting).rejects.toMatchObject({ inFlight: true, cause: reason });
      },
    );
  });

  it("throws the connection error on a refused connection", async () => {
    const error = await send(config(), { url: "http://127.0.0.1:9/x", method: "GET" }, { name: "op" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Broken);
  });

  it("rejects with the aborted error, the caller's reason as its cause, when aborted while waiting for Retry-After", async () => {
    server.script(answer(429, "", { "retry-after": "30" }));
    const controller = new AbortController();
    const reason = new Error("enough");
    const pending = send(config(), post(), { name: "op", signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort(reason);
    await expect(pending).rejects.toMatchObject({ inFlight: false, cause: reason });
  });
});

async function rejection(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new Error("expected a rejection");
  return outcome;
}

const keyed = () => ({ ...post(), url: `${server.origin}/x?token=query-secret`, headers: { "content-type": "application/json", "x-api-key": "scrape_live_secret" } });

describe("redirects", () => {
  it.each([301, 302, 303, 307, 308])("refuses a %i to another origin, which receives nothing; the error names both origins only", async (status) => {
    server.script(hostile.redirect(status, `${elsewhere.origin}/steal?x=1`));
    elsewhere.script(answer(200, "{}"));
    const error = await rejection(send(config(), keyed(), { name: "op" }));
    expect(error).toBeInstanceOf(Redirected);
    expect((error as Redirected).refusal).toEqual({ status, fromOrigin: server.origin, toOrigin: elsewhere.origin, reason: "cross-origin" });
    expect(error.message).toContain(server.origin);
    expect(error.message).toContain(elsewhere.origin);
    for (const secret of ["scrape_live_secret", "query-secret", "steal", "x=1"]) expect(error.message).not.toContain(secret);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it("returns a redirect unfollowed when the caller keeps it (a documented 302); the other origin receives nothing", async () => {
    server.script(hostile.redirect(302, `${elsewhere.origin}/callback?code=c`));
    const { response, attempts } = await send(config(), { ...keyed(), keepRedirect: true }, { name: "op" });
    expect([response.status, response.headers.get("location"), attempts]).toEqual([302, `${elsewhere.origin}/callback?code=c`, 1]);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it("refuses a redirect to the same host on another scheme or port", async () => {
    const port = new URL(server.origin).port;
    server.script(hostile.redirect(308, `https://127.0.0.1:${port}/x`));
    expect(((await rejection(send(config(), keyed(), { name: "op" }))) as Redirected).refusal.reason).toBe("cross-origin");
  });

  it.each([307, 308, 301, 302])("follows a same-origin %i with the same method, body and key", async (status) => {
    server.script(hostile.redirect(status, "/moved?page=2"), answer(200, "moved"));
    const { text, attempts } = await send(config(), keyed(), { name: "op" });
    expect([text, attempts]).toEqual(["moved", 1]);
    const [, second] = server.requests;
    expect(second).toMatchObject({ method: "POST", path: "/moved", body: '{"a":1}' });
    expect(second?.headers["x-api-key"]).toBe("scrape_live_secret");
  });

  it("follows a same-origin 303 as a GET without the body or its headers, keeping the key", async () => {
    server.script(hostile.redirect(303, `${server.origin}/result`), answer(200, "result"));
    expect((await send(config(), keyed(), { name: "op" })).text).toBe("result");
    const [, second] = server.requests;
    expect(second).toMatchObject({ method: "GET", path: "/result", body: "" });
    expect(second?.headers["content-type"]).toBeUndefined();
    expect(second?.headers["x-api-key"]).toBe("scrape_live_secret");
  });

  it("refuses a loop after maxRedirects hops, and an unreadable Location", async () => {
    server.script(hostile.redirect(307, "/again"));
    const loop = (await rejection(send(config(), keyed(), { name: "op" }))) as Redirected;
    expect(loop.refusal.reason).toBe("too-many");
    expect(server.requests).toHaveLength(6);
    server.script(hostile.redirect(302, "http://[::1"));
    expect(((await rejection(send(config(), keyed(), { name: "op" }))) as Redirected).refusal).toMatchObject({ reason: "unreadable", toOrigin: undefined });
  });

  it("returns a 3xx without Location as an answer", async () => {
    server.script(answer(304, ""));
    expect((await send(config(), keyed(), { name: "op" })).response.status).toBe(304);
  });

  it("refuses the answer of a custom fetch that followed a redirect to another origin anyway", async () => {
    server.script(hostile.redirect(307, `${elsewhere.origin}/x`));
    elsewhere.script(answer(200, "{}"));
    const following: typeof fetch = (url, init) => fetch(url, { ...init, redirect: "follow" });
    const error = (await rejection(send(config({ fetch: following }), keyed(), { name: "op" }))) as Redirected;
    expect(error.refusal).toEqual({ status: 0, fromOrigin: server.origin, toOrigin: elsewhere.origin, reason: "cross-origin" });
  });
});

describe("waits", () => {
  const overflowWarnings: string[] = [];
  const onWarning = (warning: Error) => void (warning.name === "TimeoutOverflowWarning" && overflowWarnings.push(warning.message));
  beforeAll(() => void process.on("warning", onWarning));
  afterAll(() => void process.off("warning", onWarning));

  it.each(["2147484", "1000000000", "3600", "Fri, 31 Dec 9999 23:59:59 GMT", "5, 3600"])(
    "returns a 429 whose Retry-After (%s) is beyond maxRetryWaitMs at once, without a retry or a timer overflow",
    async (retryAfter) => {
      server.script(answer(429, "", { "retry-after": retryAfter }), answer(200, "too early"));
      const lines: string[] = [];
      const { response, attempts } = await send(config({ logger: { warn: (line) => void lines.push(line) } }), post(), { name: "op" });
      expect([response.status, attempts]).toEqual([429, 1]);
      expect(lines.join("\n")).toMatch(/beyond maxRetryWaitMs \(60000 ms\): not retried/);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.requests).toHaveLength(1);
      expect(overflowWarnings).toEqual([]);
    },
  );

  it("waits within maxRetryWaitMs", async () => {
    server.script(answer(429, "", { "retry-after": "0.05" }), answer(200, "ok"));
    expect((await send(config({ maxRetryWaitMs: 100 }), post(), { name: "op" })).attempts).toBe(2);
  });

  it("calls beforeRetry only for a wait it takes", async () => {
    const waits: number[] = [];
    server.script(answer(429, "", { "retry-after": "0.02" }), answer(429, "", { "retry-after": "99" }));
    await send(config({ maxRetryWaitMs: 1000, beforeRetry: (_answer, decision) => void waits.push(decision.delayMs) }), post(), { name: "op" });
    expect(waits).toEqual([20]);
  });
});

describe("bodies", () => {
  const small = config({ maxResponseBytes: 64 * 1024 });

  it("refuses a declared content-length beyond maxResponseBytes before reading", async () => {
    server.script(hostile.declares(10 * 1024 ** 3));
    const error = (await rejection(send(small, post(), { name: "op" }))) as TooLarge;
    expect(error).toBeInstanceOf(TooLarge);
    expect(error.tooLarge).toEqual({ limitBytes: 64 * 1024, counted: "content-length", bytes: 10 * 1024 ** 3 });
  });

  it("stops an endless body at maxResponseBytes of bytes on the wire", async () => {
    server.script(hostile.endless());
    const error = (await rejection(send(small, post(), { name: "op" }))) as TooLarge;
    expect(error.tooLarge.counted).toBe("wire");
    expect(error.tooLarge.bytes).toBeGreaterThan(64 * 1024);
  });

  it("ends a gzip body that never ends and decodes to nothing at the timeout: fetch decodes before any count", async () => {
    server.script(hostile.inflatesToNothing());
    const error = await rejection(send(small, post(), { name: "op", timeoutMs: 300 }));
    expect(error).toBeInstanceOf(Timeout);
  });

  it("calls a fetch of the caller's as it is, with the attempt's signal", async () => {
    const inits: RequestInit[] = [];
    const own: typeof fetch = (input, init) => {
      inits.push(init ?? {});
      return globalThis.fetch(input, init);
    };
    server.script(hostile.endless());
    const error = (await rejection(send({ ...small, fetch: own }, post(), { name: "op", timeoutMs: 5000 }))) as TooLarge;
    expect(error.tooLarge.counted).toBe("wire");
    expect(Object.keys(inits[0] ?? {}).sort()).toEqual(["body", "headers", "method", "redirect", "signal"]);
  });

  it.each(["gzip", "br"] as const)("stops a %s bomb at maxResponseBytes of decoded bytes", async (encoding) => {
    server.script(hostile.bomb(encoding, 1024 ** 3));
    const error = (await rejection(send(small, post(), { name: "op" }))) as TooLarge;
    expect(error.tooLarge).toMatchObject({ limitBytes: 64 * 1024, counted: "decoded" });
  });

  it("reads a compressed body within the limit, decoded", async () => {
    server.script(hostile.bomb("gzip", 10_000));
    expect((await send(small, post(), { name: "op" })).text).toBe("\0".repeat(10_000));
  });

  it("reads no byte past a declared content-length (what lets a plain body within the limit be read whole)", async () => {
    // A raw socket: node:http would refuse to send more than it declared.
    const liar = createNetServer((socket) => {
      socket.once("data", () => {
        socket.write("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 10\r\n\r\n");
        socket.end(Buffer.alloc(4 * 1024 * 1024, 0x61));
      });
      socket.on("error", () => undefined);
    });
    await new Promise<void>((resolve) => liar.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = liar.address() as AddressInfo;
      expect((await send(small, { url: `http://127.0.0.1:${port}/x`, method: "GET" }, { name: "op" })).text).toBe("a".repeat(10));
    } finally {
      liar.close();
    }
  });

  it("counts the timeout over the whole body", async () => {
    server.script(hostile.trickle(20));
    await expect(send(config(), post(), { name: "op", timeoutMs: 200 })).rejects.toBeInstanceOf(Timeout);
  });
});
