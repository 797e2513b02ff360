import { inspect } from "node:util";
import { echoes, type Handler, hostile, leakedForms, type Received, type ScriptedServer, startScriptedServer } from "@content-scraper/test-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowedGrowth } from "../src/memory.js";
import { type Limits, type Outcome, type Subject, subjects } from "../src/subjects.js";

// Every case against every client: the server misbehaves, the client ends with its own typed error (or the answer the
// case allows), the credential stays on its origin and out of every error, and nothing waits or reads without bound.

let server: ScriptedServer;
// Another port is another origin: where hostile redirects point.
let elsewhere: ScriptedServer;
const overflowWarnings: string[] = [];
const onWarning = (warning: Error) => void (warning.name === "TimeoutOverflowWarning" && overflowWarnings.push(warning.message));

beforeAll(async () => {
  server = await startScriptedServer();
  elsewhere = await startScriptedServer();
  process.on("warning", onWarning);
});
afterAll(async () => {
  process.off("warning", onWarning);
  await server.close();
  await elsewhere.close();
  // No timer of any client was ever set beyond 2^31-1 ms.
  expect(overflowWarnings).toEqual([]);
});

interface Settled {
  outcome?: Outcome;
  error?: unknown;
}

interface Case {
  name: string;
  limits?: Limits;
  /** The main server's answers, in order (the last repeats). */
  serve(subject: Subject): Handler[];
  check(settled: Settled, subject: Subject): void;
  /** Calls on the same client, one after the other; 1 unless said. */
  calls?: number;
  /** A success whose data echoes the credential: the data is returned as the service sent it, and not checked. */
  dataEchoes?: boolean;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => hostile.raw(status, JSON.stringify(body), headers);
const success = (subject: Subject, headers: Record<string, string> = {}) => json(200, subject.success, headers);
const sent = (index: number): Received => {
  const request = server.requests[index];
  if (!request) throw new Error(`request ${index + 1} was not sent`);
  return request;
};

function thrown(settled: Settled, type: Subject["errors"][keyof Subject["errors"]]): Error {
  expect(settled.error, `resolved with ${JSON.stringify(settled.outcome)}`).toBeInstanceOf(type);
  return settled.error as Error;
}

const redirects = [301, 302, 303, 307, 308].map(
  (status): Case => ({
    name: `a ${status} to another origin is refused, naming both origins only; that origin receives nothing`,
    serve: (subject) => [hostile.redirect(status, `${elsewhere.origin}${subject.basePath}/elsewhere?next=private-query`)],
    check: (settled, subject) => {
      const error = thrown(settled, subject.errors.redirect);
      expect(error).toMatchObject({ refusal: { status, fromOrigin: server.origin, toOrigin: elsewhere.origin, reason: "cross-origin" } });
      expect(error.message).toContain(server.origin);
      expect(error.message).toContain(elsewhere.origin);
      expect(error.message).not.toContain("private-query");
      expect(elsewhere.requests).toHaveLength(0);
    },
  }),
);

const sameOrigin = [307, 308].map(
  (status): Case => ({
    name: `a same-origin ${status} is followed with the same method, body and credential`,
    serve: (subject) => [hostile.redirect(status, `${subject.basePath}/moved`), success(subject)],
    check: (settled) => {
      expect(settled.outcome?.status).toBe(200);
      const [first, second] = [sent(0), sent(1)];
      expect(second).toMatchObject({ method: first.method, path: expect.stringMatching(/\/moved$/), body: first.body });
    },
  }),
);

const malformed = (name: string, body: string): Case => ({
  name: `a 200 whose JSON is ${name}: a typed response error where the shape is documented, else the JSON as it came`,
  serve: () => [hostile.raw(200, body)],
  check: (settled, subject) => {
    if (subject.checksShape) thrown(settled, subject.errors.response);
    else expect(settled.outcome).toMatchObject({ status: 200, data: JSON.parse(body) });
  },
});

const failing = (status: number, body: string, contentType = "application/json"): Case => ({
  name: `a ${status} with the body ${body}: the status, typed`,
  serve: () => [hostile.raw(status, body, { "content-type": contentType })],
  check: (settled, subject) => {
    // The OAuth helpers read protocol errors only from RFC 6749 bodies; anything else fails their check.
    if (settled.error !== undefined) thrown(settled, subject.errors.response);
    else expect(settled.outcome?.status).toBe(status);
  },
});

const refusedWait = (retryAfter: string, expectedMs: unknown): Case => ({
  name: `a 429 with Retry-After ${retryAfter}, beyond maxRetryWaitMs: final at once, retryable, with retryAfterMs`,
  serve: (subject) => [json(429, subject.errorBody(429), { "retry-after": retryAfter }), success(subject)],
  check: (settled, subject) => {
    expect(settled.outcome?.status).toBe(429);
    if (subject.reportsRetryAfter) expect(settled.outcome).toMatchObject({ retryable: true, retryAfterMs: expectedMs });
    expect(server.requests).toHaveLength(1);
  },
});

const unreadableWait = (retryAfter: string): Case => ({
  name: `a 429 with the unreadable Retry-After ${retryAfter}: as if absent`,
  serve: (subject) => [json(429, subject.errorBody(429), { "retry-after": retryAfter }), success(subject)],
  check: (settled, subject) => {
    if (subject.retriesWithoutRetryAfter) {
      expect(settled.outcome?.status).toBe(200);
      expect(server.requests).toHaveLength(2);
    } else {
      expect(settled.outcome?.status).toBe(429);
      if (subject.reportsRetryAfter) expect(settled.outcome?.retryAfterMs).toBeUndefined();
      expect(server.requests).toHaveLength(1);
    }
  },
});

const shortWait = (retryAfter: string): Case => ({
  name: `a 429 with Retry-After ${retryAfter}: waited, then sent again`,
  serve: (subject) => [json(429, subject.errorBody(429), { "retry-after": retryAfter }), success(subject)],
  check: (settled) => {
    expect(settled.outcome?.status).toBe(200);
    expect(server.requests).toHaveLength(2);
  },
});

const tooLarge = (name: string, handler: Handler, counted: "content-length" | "wire" | "decoded"): Case => ({
  name: `${name}: stopped at maxResponseBytes with the typed error`,
  limits: { maxResponseBytes: 256 * 1024 },
  serve: () => [handler],
  check: (settled, subject) => expect(thrown(settled, subject.errors.tooLarge)).toMatchObject({ tooLarge: { limitBytes: 256 * 1024, counted } }),
});

const slow = (name: string, handler: Handler): Case => ({
  name: `${name}: the timeout ends it with the typed error, not retried`,
  limits: { timeoutMs: 300 },
  serve: () => [handler],
  check: (settled, subject) => {
    expect(thrown(settled, subject.errors.timeout)).toMatchObject({ timeoutMs: 300 });
    expect(server.requests).toHaveLength(1);
  },
});

/** The credential as the server received it (a key, a bearer token, HTTP Basic credentials), without the scheme. */
const received = (request: Received, subject: Subject) => String(request.headers[subject.secretHeader] ?? "").replace(/^(Bearer|Basic) /i, "");

/** An error answer whose JSON message echoes the credential the server received, as a careless service would. */
const echoJson = (status: number): Case => ({
  name: `a ${status} whose JSON message echoes the credential: redacted from every error form and every body handed back`,
  serve: (subject) => [
    (request, response) => {
      const body = JSON.stringify(subject.errorBody(status)).replace(/refused/i, `no profile for key ${received(request, subject)}`);
      response.writeHead(status, { "content-type": "application/json" }).end(body);
    },
  ],
  check: () => {},
});

const echoed: Case[] = [
  echoJson(404),
  echoJson(400),
  {
    name: "a 500 text/plain echoing the credential: redacted from every error form",
    serve: (subject) => [
      (request, response) => {
        response.writeHead(500, { "content-type": "text/plain" }).end(`upstream said: bad key ${received(request, subject)}`);
      },
    ],
    check: () => {},
  },
  {
    name: "a 401 whose headers echo the credential (WWW-Authenticate, X-Echo): redacted",
    serve: (subject) => [
      (request, response) => {
        const echoed = received(request, subject);
        response
          .writeHead(401, {
            "content-type": "application/json",
            "www-authenticate": `Bearer error="invalid_token", error_description="bad token ${echoed}"`,
            "x-echo": echoed,
          })
          .end(JSON.stringify(subject.errorBody(401)));
      },
    ],
    check: () => {},
  },
];

/**
 * A JSON body as a server writes it by hand: the echoed pieces go in as they are, escapes and all (so that a JSON
 * escape reads as the character it stands for), in the message, the request id where the surface has one, and a field
 * of their own (the second half, when there are two).
 */
function echoingJson(body: unknown, pieces: string[]): string {
  return JSON.stringify(body)
    .replace(/refused/i, `no profile for key ${pieces[0]}`)
    .replace(/req_[a-z0-9]+/, `req_${pieces[0]}`)
    .replace("{", `{"hint":"${pieces.at(-1)}",`);
}

/** Each way a server may encode the credential it received, in an error's JSON, in a text/plain error, and in a success. */
const encoded: Case[] = echoes.flatMap((echo): Case[] => [
  {
    name: `a 400 whose JSON and headers echo the credential ${echo.name}: redacted from every error, log line and hook event`,
    serve: (subject) => [
      (_request, response) => {
        const pieces = echo.pieces(subject.secret, subject.publicPrefix);
        response.writeHead(400, { "content-type": "application/json", "x-echo": pieces[0] as string, "x-echo-2": pieces.at(-1) as string });
        response.end(echoingJson(subject.errorBody(400), pieces));
      },
    ],
    check: (settled, subject) => void (settled.error === undefined ? expect(settled.outcome?.status).toBe(400) : thrown(settled, subject.errors.response)),
  },
  {
    name: `a 500 text/plain and a challenge echoing the credential ${echo.name}: redacted from every error, log line and hook event`,
    serve: (subject) => [
      (_request, response) => {
        const pieces = echo.pieces(subject.secret, subject.publicPrefix);
        response.writeHead(500, { "content-type": "text/plain", "www-authenticate": `Bearer error="invalid_token", error_description="bad token ${pieces[0]}"` });
        response.end(`upstream said: bad key ${pieces.join(" and ")}`);
      },
    ],
    check: () => {},
  },
  {
    name: `a success whose request id, headers and data echo the credential ${echo.name}: the meta, log lines and hook events redacted`,
    dataEchoes: true,
    serve: (subject) => [
      (_request, response) => {
        const pieces = echo.pieces(subject.secret, subject.publicPrefix);
        response.writeHead(200, { "content-type": "application/json", "x-echo": pieces[0] as string, "x-request-id": `req_${pieces.at(-1)}` });
        response.end(JSON.stringify(subject.success).replace(/req_[a-z0-9]+|"Creator"|"acct_1"|"at_1"/g, (found) => (found.startsWith('"') ? `"${pieces[0]}"` : `req_${pieces[0]}`)));
      },
    ],
    check: (settled) => expect(settled.outcome?.status).toBe(200),
  },
]);

/** What a client lets out besides its errors and results: every log line and (the scraper's) hook event, as text. */
function watch(): { limits: Pick<Limits, "logger" | "hooks">; texts(): string[] } {
  const seen: unknown[] = [];
  const line = (level: string) => (message: string, details?: unknown) => void seen.push({ level, message, details });
  const event = (kind: string) => (event: { headers?: unknown; error?: unknown }) =>
    void seen.push({
      kind,
      ...event,
      headers: event.headers instanceof Headers ? Object.fromEntries(event.headers) : event.headers,
      error: event.error === undefined ? undefined : [String(event.error), inspect(event.error, { depth: 10 }), JSON.stringify(event.error)],
    });
  return {
    limits: {
      logger: { debug: line("debug"), info: line("info"), warn: line("warn"), error: line("error") },
      hooks: { onRequest: event("request"), onResponse: event("response"), onRetry: event("retry"), onError: event("error") },
    },
    texts: () => [JSON.stringify(seen), inspect(seen, { depth: 10 })],
  };
}

const cases: Case[] = [
  ...echoed,
  ...encoded,
  ...redirects,
  ...sameOrigin,
  {
    name: "a same-origin 303 is followed as a GET without the body, with the credential",
    serve: (subject) => [hostile.redirect(303, `${subject.basePath}/see-other`), success(subject)],
    check: (settled) => {
      expect(settled.outcome?.status).toBe(200);
      expect(sent(1)).toMatchObject({ method: "GET", body: "" });
    },
  },
  {
    name: "a redirect loop on the same origin is refused after maxRedirects",
    serve: (subject) => [hostile.redirect(307, `${subject.basePath}/again`)],
    check: (settled, subject) => {
      expect(thrown(settled, subject.errors.redirect)).toMatchObject({ refusal: { reason: "too-many" } });
      expect(server.requests).toHaveLength(6);
    },
  },
  slow("slow headers (none ever)", hostile.silence()),
  slow("a slow body (a byte every 20 ms, forever)", hostile.trickle(20)),
  tooLarge("an endless body", hostile.endless(), "wire"),
  tooLarge("a body declaring 10 GiB", hostile.declares(10 * 1024 ** 3), "content-length"),
  tooLarge("a 1 GiB gzip bomb", hostile.bomb("gzip", 1024 ** 3), "decoded"),
  tooLarge("a 1 GiB brotli bomb", hostile.bomb("br", 1024 ** 3), "decoded"),
  // Node's fetch decodes before any count, and offers no public way to count the bytes on the wire: the timeout ends it.
  slow("a gzip body that never ends and decodes to nothing", hostile.inflatesToNothing()),
  {
    name: "truncated JSON on a 200: a typed response error",
    serve: () => [hostile.raw(200, '{"data": {"username": "cre')],
    check: (settled, subject) => void thrown(settled, subject.errors.response),
  },
  {
    name: "HTML on a 200: a typed response error",
    serve: () => [hostile.raw(200, "<html><body>Service temporarily unavailable</body></html>", { "content-type": "text/html" })],
    check: (settled, subject) => void thrown(settled, subject.errors.response),
  },
  malformed("null", "null"),
  malformed("an array", "[]"),
  malformed("a string", '"ok"'),
  malformed("a number", "42"),
  malformed("an empty object", "{}"),
  malformed("an envelope without meta", JSON.stringify({ data: { username: "creator" }, request_id: "req_1", upstream_calls: 1 })),
  failing(500, "null"),
  failing(429, "[1, 2]"),
  failing(502, "<html>Bad gateway</html>", "text/html"),
  refusedWait("2147484", 2_147_484_000),
  refusedWait("1000000000", 1e12),
  refusedWait("3600", 3_600_000),
  // An HTTP-date counts from now (the check's now, not the file's load, which a loaded machine puts minutes earlier).
  refusedWait("Fri, 31 Dec 9999 23:59:59 GMT", {
    asymmetricMatch: (actual: unknown) => typeof actual === "number" && Math.abs(actual - (Date.parse("Fri, 31 Dec 9999 23:59:59 GMT") - Date.now())) < 60_000,
    toString: () => "the milliseconds from now to 9999-12-31, within a minute",
  }),
  unreadableWait("soon"),
  unreadableWait("-5"),
  shortWait("0.02"),
  shortWait("0.01, 0.03"),
  shortWait("Sat, 01 Jan 2000 00:00:00 GMT"),
  {
    name: "absurd rate-limit headers are ignored: calls go on",
    calls: 3,
    serve: (subject) => [
      success(subject, {
        "x-scraper-ratelimit-limit": "1e400",
        "x-scraper-ratelimit-remaining": "-1000000000",
        "x-ratelimit-limit": "-1, 100",
        "x-ratelimit-remaining": "-1000000000",
        "x-ratelimit-reset": "never",
      }),
    ],
    check: (settled) => {
      expect(settled.outcome?.status).toBe(200);
      expect(server.requests).toHaveLength(3);
    },
  },
];

describe.each(subjects.map((subject) => [subject.name, subject] as const))("%s", (_name, subject) => {
  it.each(cases.map((each) => [each.name, each] as const))("%s", async (_case, each) => {
    server.script(...each.serve(subject));
    elsewhere.script(success(subject));
    const watched = watch();
    const limits = { maxResponseBytes: 1024 * 1024, ...each.limits, ...watched.limits };
    const rssBefore = process.memoryUsage().rss;
    const call = subject.open(server.origin, limits);
    const settled: Settled = {};
    try {
      for (let n = 0; n < (each.calls ?? 1); n++) settled.outcome = await call();
    } catch (error) {
      settled.error = error;
    }
    each.check(settled, subject);
    // Whatever went wrong is the client's own error, never a raw TypeError or SyntaxError.
    if (settled.error !== undefined) expect(settled.error).toBeInstanceOf(subject.family);
    // The credential, in every encoding a server may give it and in every form the server received it, is in no error
    // (however it is printed), no body an `api` door hands back, no meta, no log line and no hook event. A success's
    // data is returned as the service sent it.
    const { error: _kept, ...outcome } = settled.outcome ?? { status: 0 };
    const texts = [
      ...[settled.error, settled.outcome?.error]
        .filter((each): each is Error => each !== undefined)
        .flatMap((error) => [String(error), error.message, error.stack ?? "", JSON.stringify(error), inspect(error, { depth: 10 })]),
      JSON.stringify(each.dataEchoes ? { ...outcome, data: undefined } : outcome),
      ...watched.texts(),
    ];
    expect(leakedForms(texts, subject.secret, subject.publicPrefix)).toEqual([]);
    const forms = server.requests.map((request) => received(request, subject)).filter(Boolean);
    for (const text of texts) for (const form of forms) expect(text).not.toContain(form);
    // The credential went to the configured origin only.
    expect(elsewhere.requests).toHaveLength(0);
    for (const request of server.requests) expect(request.headers[subject.secretHeader]).toBeDefined();
    // The memory the case allows: the peak RSS of this process so far, minus its RSS before the case (an upper bound of
    // the case's growth, the server's included), stays under the documented bound. The memory cases measure the heavy
    // bodies at a larger limit, each in a process of its own.
    const growth = process.resourceUsage().maxRSS * 1024 - rssBefore;
    expect(growth, "peak RSS growth, bytes").toBeLessThan(allowedGrowth(limits.maxResponseBytes));
  });
});

// What a client refuses before anything is sent: credentials it could not send whole, base URLs that would leak them,
// raw paths that leave the API, headers that would carry a second credential.

/** The error `call` throws, checked: the family's, naming `field`, never showing `secret`; nothing was sent. */
async function refused(subject: Subject, call: () => Promise<unknown>, field: string | RegExp, secret = subject.secret): Promise<void> {
  server.script(hostile.raw(200, JSON.stringify(subject.success)));
  let error: unknown;
  try {
    await call();
  } catch (thrown) {
    error = thrown;
  }
  expect(error, "accepted").toBeInstanceOf(subject.family);
  expect((error as { field?: string }).field).toMatch(field);
  for (const text of [String(error), inspect(error, { depth: 10 }), JSON.stringify(error)]) expect(text).not.toContain(secret);
  expect(server.requests).toHaveLength(0);
}


describe.each(subjects.map((subject) => [subject.name, subject] as const))("%s, before sending", (_name, subject) => {
  it.each([
    ["a newline (two credentials read from one file)", (secret: string) => `${secret}\n${secret}`],
    ["a carriage return", (secret: string) => `${secret}\r`],
    ["NUL", (secret: string) => `${secret}\0`],
  ])("a credential holding %s is refused, naming its field", async (_what, corrupt) => {
    await refused(subject, () => subject.make(subject.base(server.origin), corrupt(subject.secret))(), /apiKey|accessToken|clientSecret/);
  });

  it("a base URL with a user and password is refused, and never shown", async () => {
    const withUserinfo = subject.base(server.origin).replace("http://", "http://user:pa55w0rdInUrl@");
    await refused(subject, () => subject.make(withUserinfo, subject.secret)(), /baseUrl|issuer|metadata/, "pa55w0rdInUrl");
  });

  it("plain http:// to another machine is refused unless the caller opts in by name", async () => {
    const remote = subject.base(server.origin).replace(/127\.0\.0\.1:\d+/, "api.example.invalid");
    await refused(subject, () => subject.make(remote, subject.secret, { allowInsecureRequests: false })(), /baseUrl|issuer|allowInsecureRequests/);
  });
});

describe.each(subjects.filter((subject) => subject.rawPath).map((subject) => [subject.name, subject] as const))("%s, on a raw path", (_name, subject) => {
  it.each(["/../../etc/passwd", "/accounts/%2e%2e/%2e%2e/x", "//evil.example/x"])("refuses %s before sending", async (path) => {
    await refused(subject, () => subject.rawPath?.(server.origin, path) as Promise<unknown>, "path");
  });
});

describe.each(subjects.filter((subject) => subject.withHeaders).map((subject) => [subject.name, subject] as const))("%s, with headers of the caller's", (_name, subject) => {
  it("refuses a header carrying a second credential, naming it", async () => {
    await refused(subject, () => subject.withHeaders?.(server.origin, { "X-Api-Key": "scrape_live_someoneElse" }) as Promise<unknown>, /^headers\./, "scrape_live_someoneElse");
  });
});
