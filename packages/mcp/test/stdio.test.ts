import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { type RunningMock, startMock } from "@content-scraper/mock";
import { echoes, leakedForms, type Received, startScriptedServer } from "@content-scraper/test-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bin, charged, secretKey, stdioClient, structured } from "./helpers.js";

const run = promisify(execFile);
let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, timeScale: 0 });
});
afterAll(() => mock?.close());
beforeEach(() => mock.reset());

const args = (...more: string[]) => ["--base-url", mock.baseUrls.scraper as string, ...more];
const keyPrefix = "scrape_live_";

describe("the bin over stdio, driven by the SDK's client, against the sandbox", () => {
  it("answers an operation with its data, the envelope's meta and the allowance left; the sandbox's ledger agrees", async () => {
    const { client, close, stderr } = await stdioClient(args("--max-credits", "10"));
    try {
      const answer = structured(await client.callTool({ name: "photoshareProfile", arguments: { username: "creator" } }));
      expect(answer.data).toMatchObject({ username: expect.any(String), follower_count: expect.any(Number) });
      const [entry] = await mock.log();
      expect(answer.meta).toMatchObject({ creditsCharged: 1, creditsRemaining: 999_999, requestId: entry?.requestId });
      expect(answer.allowance).toEqual({ left: 9, server: { maxCredits: 10, spent: 1, reserved: 0, left: 9 } });
      expect(await charged(mock)).toBe(1);
      // A billed not-found: a tool error whose charge the allowance counts.
      const gone = await client.callTool({ name: "photoshareProfile", arguments: { username: "notfound" } });
      expect(gone.isError).toBe(true);
      expect(structured(gone).error).toMatchObject({ kind: "api", status: 404, code: "PROFILE_NOT_FOUND", billed: true, creditsCharged: 1, retryable: false });
      expect(structured(gone).allowance.left).toBe(8);
    } finally {
      await close();
    }
    expect(stderr()).not.toContain(secretKey);
  });

  it("refuses before sending a call that would pass the allowance, saying what is left; the sandbox sees nothing", async () => {
    const { client, close } = await stdioClient(args("--max-credits", "30", "--session-max-credits", "26"));
    try {
      expect((await client.callTool({ name: "shortvideoAudience", arguments: { username: "creator" } })).isError).toBeFalsy();
      const before = (await mock.log()).length;
      const refused = await client.callTool({ name: "photoshareAudience", arguments: { username: "creator" } });
      expect(refused.isError).toBe(true);
      expect(structured(refused).error).toEqual({
        kind: "allowance",
        operationId: "photoshareAudience",
        message: "photoshareAudience was not sent: it costs 25 credit(s), and the allowance has 1 left.",
        needed: 25,
        left: 1,
      });
      expect(structured(refused).allowance).toMatchObject({ left: 1, server: { left: 5 }, session: { maxCredits: 26, spent: 25, left: 1 } });
      expect((await mock.log()).length).toBe(before);
      expect(await charged(mock)).toBe(25);
    } finally {
      await close();
    }
  });

  it("arguments that break the operation's schema are a tool error naming the field, and nothing is sent", async () => {
    const { client, close } = await stdioClient(args("--max-credits", "10"));
    try {
      const bad = await client.callTool({ name: "shortvideoFavorites", arguments: { handle: "a", unique_id: "b" } });
      expect(bad.isError).toBe(true);
      expect(structured(bad).error).toMatchObject({ kind: "input", message: expect.stringContaining("exactly one of `handle` or `unique_id`") });
      const pattern = structured(await client.callTool({ name: "shortvideoProfile", arguments: { username: "not a handle" } }));
      expect(pattern.error).toMatchObject({ kind: "input", field: "username" });
      expect(await mock.log()).toEqual([]);
      await expect(client.callTool({ name: "shortvideoDelete", arguments: {} })).rejects.toThrow(/Unknown tool: shortvideoDelete/);
    } finally {
      await close();
    }
  });

  it("a 402 is a tool error the agent can act on, and asking again after it costs nothing", async () => {
    await mock.setBalance(secretKey, 0);
    const { client, close } = await stdioClient(args("--max-credits", "10"));
    try {
      for (let i = 0; i < 3; i++) {
        const answer = await client.callTool({ name: "microblogProfile", arguments: { username: "creator" } });
        expect(answer.isError).toBe(true);
        expect(structured(answer).error).toMatchObject({ code: "INSUFFICIENT_SCRAPER_CREDITS", billed: false, retryable: false });
        expect(structured(answer).allowance.left).toBe(10);
      }
      expect(await charged(mock)).toBe(0);
    } finally {
      await close();
    }
  });

  it("retries a 429 inside the server within its bound; a refunded failure whose backoff is past the bound is a tool error with retryAfterMs", async () => {
    const { client, close } = await stdioClient(args("--max-credits", "10"));
    try {
      await mock.inject({ operation: "videositeProfile", status: 429, count: 1 });
      const retried = await client.callTool({ name: "videositeProfile", arguments: { username: "creator" } });
      expect(retried.isError).toBeFalsy();
      expect((await mock.log()).map((entry) => entry.status)).toEqual([429, 200]);
      await mock.inject({ operation: "videositeProfile", status: 502, count: 1 });
      const refunded = await client.callTool({ name: "videositeProfile", arguments: { username: "creator" } });
      expect(refunded.isError).toBe(true);
      // The description's first backoff step (30 s) is past the default bound (10 s): not slept on, handed to the agent.
      expect(structured(refunded).error).toMatchObject({ status: 502, billed: false, retryable: true, retryAfterMs: 30_000 });
      expect(structured(refunded).allowance.left).toBe(9);
    } finally {
      await close();
    }
    const strict = await stdioClient(args("--max-credits", "10", "--max-retry-wait-ms", "0"));
    try {
      await mock.inject({ operation: "videositeProfile", status: 429, count: 1 });
      const limited = structured(await strict.client.callTool({ name: "videositeProfile", arguments: { username: "creator" } }));
      expect(limited.error).toMatchObject({ status: 429, code: "SCRAPER_RATE_LIMITED", retryable: true, retryAfterMs: expect.any(Number) });
    } finally {
      await strict.close();
    }
  });

  it("--dry-run answers from the sandbox without a key, and says so", async () => {
    const { client, close } = await stdioClient(["--dry-run", "--max-credits", "3", "--allow", "*Profile"], { SCRAPER_API_KEY: "" });
    try {
      expect(client.getInstructions()).toContain("Dry run");
      const answer = structured(await client.callTool({ name: "ephemeralProfile", arguments: { username: "creator" } }));
      expect(answer).toMatchObject({ sandbox: true, data: { username: expect.any(String) }, meta: { creditsCharged: 1 }, allowance: { left: 2 } });
    } finally {
      await close();
    }
  });
});

describe("no credential in any tool result, log line or error", () => {
  it("a server that echoes the key in every encoding, in a body, an error and a header: no answer and no stderr line holds it", async () => {
    const hostile = await startScriptedServer("/api/v1");
    const piecesOf = (request: Received) => echoes.flatMap((echo) => echo.pieces(String(request.headers["x-api-key"]), keyPrefix));
    hostile.script(
      (request, response) => {
        const pieces = piecesOf(request);
        response.writeHead(200, { "content-type": "application/json", "x-scraper-credits-charged": "1", "x-echo": pieces.join(" ") });
        const data = { username: pieces[0], display_name: pieces.join(" "), follower_count: 1 };
        response.end(JSON.stringify({ data, request_id: `req_${pieces[1]}`, upstream_calls: 1, meta: { credits_charged: 1, credits_remaining: 5 } }));
      },
      (request, response) => {
        // JSON written by hand: its escapes read as the characters they stand for.
        const pieces = piecesOf(request);
        response.writeHead(400, { "content-type": "application/json", "x-scraper-credits-charged": "0" });
        response.end(`{"error":"INVALID_INPUT","message":"bad key ${pieces.join(" ")}","field":"${pieces[2]}","request_id":"req_${pieces[3]}"}`);
      },
      (request, response) => void response.writeHead(500, { "content-type": "text/plain" }).end(`upstream said: bad key ${piecesOf(request).join(" ")}`),
    );
    const { client, close, stderr } = await stdioClient(["--base-url", hostile.baseUrl, "--max-credits", "5", "--max-retries", "0"]);
    try {
      const answers = [];
      for (let call = 0; call < 3; call++) answers.push(await client.callTool({ name: "shortvideoProfile", arguments: { username: "creator" } }));
      expect(hostile.requests.every((request) => request.headers["x-api-key"] === secretKey), "the server did get the key, and echoed it").toBe(true);
      for (const answer of answers) {
        expect(leakedForms([JSON.stringify(answer)], secretKey, keyPrefix)).toEqual([]);
        expect(JSON.stringify(answer)).toContain("[redacted]");
      }
      expect(structured(answers[1]).error).toMatchObject({ kind: "api", message: expect.stringMatching(/^bad key \[redacted\]/) });
    } finally {
      await close();
      await hostile.close();
    }
    expect(leakedForms([stderr()], secretKey, keyPrefix)).toEqual([]);
  });

  it("bad arguments and environment: exit status 2, a message naming what is wrong, nothing else", async () => {
    const fail = (argv: string[], env: Record<string, string> = { SCRAPER_API_KEY: secretKey }) =>
      run(process.execPath, [bin, ...argv], { env: { PATH: process.env.PATH ?? "", ...env } }).then(
        () => ({ code: 0, stderr: "" }),
        (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
      );
    expect(await fail([])).toMatchObject({ code: 2, stderr: expect.stringContaining("--max-credits is required") });
    expect(await fail(["--max-credits=-1"])).toMatchObject({ code: 2, stderr: expect.stringContaining("--max-credits must be an integer") });
    expect(await fail(["--max-credits", "2.5"])).toMatchObject({ code: 2, stderr: expect.stringContaining("--max-credits must be an integer") });
    expect(await fail(["--max-credits", "5"], {})).toMatchObject({ code: 2, stderr: expect.stringContaining("SCRAPER_API_KEY is not set") });
    expect(await fail(["--max-credits", "5", "--base-url", "http://127.0.0.1:9/api/v1", "--allow", "nothing"])).toMatchObject({ code: 2, stderr: expect.stringContaining('"nothing" names no operationId') });
    const wrongKey = await fail(["--max-credits", "5", "--base-url", "http://127.0.0.1:9/api/v1"], { SCRAPER_API_KEY: "sk_live_SECRET_connect_key_123" });
    expect(wrongKey).toMatchObject({ code: 2, stderr: expect.stringContaining("connect key") });
    expect(wrongKey.stderr).not.toContain("SECRET_connect_key");
    expect(await fail(["--max-credits", "5", "--http", "--host", "0.0.0.0", "--base-url", "http://127.0.0.1:9/api/v1"])).toMatchObject({ code: 2, stderr: expect.stringContaining("loopback only") });
    expect(await fail(["--max-credits", "5", "--port", "80"])).toMatchObject({ code: 2, stderr: expect.stringContaining("--host and --port go with --http") });
  });
});
