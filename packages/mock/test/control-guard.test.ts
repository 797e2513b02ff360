// Only the sandbox's owner drives its control API: it answers its own origin and callers outside a browser, at the names
// it listens on, with JSON bodies; beyond loopback, with the token it printed. (test/browser-attack.test.ts attacks it
// from a real browser page.)
import { request } from "node:http";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectSandbox, controlPath, type RunningMock, SandboxControlError } from "../src/index.js";
import { start } from "./support.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await start();
});
afterAll(() => mock.close());

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with exactly these headers (fetch would set Host itself), to `origin` (default the sandbox's). */
function raw(method: string, path: string, headers: Record<string, string>, body?: string, origin = mock.url): Promise<Raw> {
  const target = new URL(path, origin);
  return new Promise((resolve, reject) => {
    const sent = request(target, { method, headers, setHost: false }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => {
        text += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    sent.on("error", reject);
    sent.end(body);
  });
}

const port = () => new URL(mock.url).port;
const json = { "content-type": "application/json" };
const fieldOf = (answer: Raw) => (JSON.parse(answer.body) as { error: { field?: string } }).error.field;

describe("on loopback", () => {
  it.each(["127.0.0.1", "localhost", "[::1]", "LOCALHOST"])("answers at the name %s with its port", async (name) => {
    const answer = await raw("GET", `${controlPath}/clock`, { host: `${name}:${port()}` });
    expect(answer.status).toBe(200);
  });

  it.each([
    ["a rebound name (DNS rebinding)", () => `evil.example:${port()}`],
    ["another port", () => "127.0.0.1:1"],
    ["no port (80)", () => "127.0.0.1"],
    ["userinfo", () => `evil.example@127.0.0.1:${port()}`],
    ["nothing", () => ""],
  ])("refuses a Host naming %s, before the body, with no CORS header", async (_case, host) => {
    const answer = await raw("POST", `${controlPath}/balance`, { host: host(), ...json }, JSON.stringify({ key: "scrape_live_rebound", credits: 0 }));
    expect([answer.status, fieldOf(answer)]).toEqual([403, "Host"]);
    expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
    expect(answer.headers.connection).toBe("close");
  });

  it("refuses another origin, and a preflight from one, with no CORS header", async () => {
    const host = `127.0.0.1:${port()}`;
    for (const origin of ["https://evil.example", "null", `http://localhost:${port()}`]) {
      const post = await raw("POST", `${controlPath}/reset`, { host, origin, ...json }, "{}");
      expect([post.status, fieldOf(post)], origin).toEqual([403, "Origin"]);
      const preflight = await raw("OPTIONS", `${controlPath}/reset`, { host, origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" });
      expect(preflight.status, origin).toBe(403);
      expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
      expect(preflight.headers["access-control-allow-methods"]).toBeUndefined();
    }
  });

  it("refuses a browser's request from another site that carries no Origin (Sec-Fetch-Site)", async () => {
    const answer = await raw("GET", `${controlPath}/log`, { host: `127.0.0.1:${port()}`, "sec-fetch-site": "cross-site" });
    expect([answer.status, fieldOf(answer)]).toEqual([403, "Sec-Fetch-Site"]);
  });

  it("answers its own origin, as a page the sandbox served would call it", async () => {
    const answer = await raw("POST", `${controlPath}/clock/advance`, { host: `localhost:${port()}`, origin: `http://localhost:${port()}`, "sec-fetch-site": "same-origin", ...json }, '{"seconds":0}');
    expect(answer.status).toBe(200);
    expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it.each([
    ["text/plain", { "content-type": "text/plain" }, '{"key":"scrape_live_plain","credits":0}'],
    ["a form", { "content-type": "application/x-www-form-urlencoded" }, "key=scrape_live_form&credits=0"],
    ["no content type", {}, '{"key":"scrape_live_none","credits":0}'],
    ["no content type and no body", {}, undefined],
  ])("takes JSON only: a POST with %s answers 415", async (_case, headers, body) => {
    const answer = await raw("POST", `${controlPath}/balance`, { host: `127.0.0.1:${port()}`, ...headers }, body);
    expect([answer.status, fieldOf(answer), answer.headers["accept-post"]]).toEqual([415, "Content-Type", "application/json"]);
  });

  it("keeps the OAuth callback open: any page may redirect a browser there, and it holds no state", async () => {
    const answer = await raw("GET", `${controlPath}/oauth/callback?code=c&state=s`, { host: `evil.example:${port()}`, origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect([answer.status, JSON.parse(answer.body)]).toEqual([200, { code: "c", state: "s" }]);
  });

  it("keeps the surfaces' open CORS", async () => {
    const preflight = await raw("OPTIONS", "/api/v1/scrape/shortvideo/profile", { host: `evil.example:${port()}`, origin: "https://evil.example", "access-control-request-method": "POST" });
    expect([preflight.status, preflight.headers["access-control-allow-origin"]]).toEqual([204, "*"]);
  });

  it("wants a token it was given, on loopback too; refuses a token unfit for a header without echoing it", async () => {
    const token = "given-token-0123456789";
    const own = await start({ controlToken: token });
    try {
      expect(own.controlToken).toBe(token);
      const refused = await connectSandbox(own.url).clock().catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SandboxControlError);
      expect((refused as SandboxControlError).field).toBe("Authorization");
      expect((await connectSandbox(own.url, { token }).clock()).advancedSeconds).toBe(0);
    } finally {
      await own.close();
    }
    for (const bad of ["short", "has a space in it, and is long", "line\nbreak-0123456789abc"]) {
      const error = await start({ controlToken: bad }).catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(SandboxControlError);
      expect((error as SandboxControlError).field).toBe("controlToken");
      expect(inspect(error)).not.toContain(bad);
      expect(() => connectSandbox(mock.url, { token: bad })).toThrow(SandboxControlError);
    }
  });
});

describe("beyond loopback (0.0.0.0)", () => {
  let open: RunningMock;
  beforeAll(async () => {
    open = await start({ host: "0.0.0.0" });
  });
  afterAll(() => open.close());

  it("says where it can be reached, and makes a token that it keeps out of inspect and JSON", () => {
    expect(open.beyondLoopback).toBe(true);
    expect(open.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(open.origins[0]).toBe(open.url);
    expect(open.controlToken).toMatch(/^[\w-]{43}$/);
    const token = open.controlToken as string;
    expect(inspect(open, { depth: 5 })).not.toContain(token);
    expect(JSON.stringify(open)).not.toContain(token);
    // The surfaces answer as on loopback: no token.
    expect(mock.beyondLoopback).toBe(false);
  });

  it("answers no control call without the token, and every one with it, at each of its addresses", async () => {
    const token = open.controlToken as string;
    for (const origin of open.origins) {
      const bare = await raw("GET", `${controlPath}/log`, { host: new URL(origin).host }, undefined, origin);
      expect([bare.status, fieldOf(bare), bare.headers["www-authenticate"]], origin).toEqual([401, "Authorization", 'Bearer realm="content-scraper-mock control"']);
      const wrong = await connectSandbox(origin, { token: `${token.slice(0, -1)}x` }).reset().catch((error: unknown) => error);
      expect((wrong as SandboxControlError).field, origin).toBe("Authorization");
      expect(inspect(wrong)).not.toContain(token.slice(0, -1));
      expect(await connectSandbox(origin, { token }).faults(), origin).toEqual([]);
    }
    const profile = await fetch(`${open.origins.at(-1)}/api/v1/scrape/shortvideo/profile`, {
      method: "POST",
      headers: { "x-api-key": "scrape_live_lan", ...json },
      body: '{"username":"creator"}',
    });
    expect(profile.status).toBe(200);
  });
});
