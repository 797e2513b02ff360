// The service's own error envelope for everything the sandbox refuses, never Prism's problem+json.
import { Socket } from "node:net";
import { validateResponse } from "@content-scraper/validators/scraper";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMock } from "../src/index.js";
import { sandboxKeys } from "../src/index.js";
import { call, charged, operationIds, operations, requestExample, rulesOf, start } from "./support.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await start();
});
afterAll(() => mock.close());

const profile = "/scrape/shortvideo/profile";

describe("keys", () => {
  it.each([
    ["no key", null],
    ["a connect live key", "sk_live_abc123"],
    ["a connect test key", "sk_test_abc123"],
    ["a key of no surface", "abc123"],
    ["the bare prefix", "scrape_live_"],
    ["the revoked sandbox key", sandboxKeys.revoked],
  ])("%s answers 401 UNAUTHORIZED, charged 0", async (_name, key) => {
    const answer = await call(mock, profile, { username: "creator" }, { key });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe("UNAUTHORIZED");
    expect(charged(answer)).toBe(0);
    expect(answer.body).not.toHaveProperty("meta");
  });

  it("names the surface a connect key belongs to", async () => {
    const answer = await call(mock, profile, { username: "creator" }, { key: "sk_test_abc" });
    expect(answer.body.message).toContain("connect key");
  });
});

describe("invalid bodies", () => {
  it("answers a username off the pattern with field username and the pattern as reason", async () => {
    const answer = await call(mock, profile, { username: "no spaces allowed" });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: "INVALID_INPUT", field: "username", reason: "^@?[a-zA-Z0-9._-]{1,100}$" });
    expect(answer.body.message).toContain("username");
    expect(charged(answer)).toBe(0);
  });

  it.each([
    ["a missing username", {}, "username", "required"],
    ["a username of the wrong type", { username: 42 }, "username", "type"],
    ["a body that is not an object", [1, 2], undefined, "type"],
    ["no body at all", undefined, undefined, "type"],
  ])("answers %s with INVALID_INPUT", async (_name, body, field, reason) => {
    const answer = await call(mock, profile, body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("INVALID_INPUT");
    expect(answer.body.field).toBe(field);
    expect(answer.body.reason).toBe(reason);
  });

  it("answers malformed JSON with INVALID_INPUT", async () => {
    const answer = await call(mock, profile, '{"username": "crea', { raw: true });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: "INVALID_INPUT", reason: "malformed JSON" });
  });

  const focused = operationIds.filter((id) => rulesOf(id).unknownFields === "reject" && operations[id].tag?.startsWith("Focused"));
  it.each(focused)("%s rejects an unknown field before billing", async (id) => {
    const body = { ...(requestExample(id) as object), misspeled: true };
    const answer = await call(mock, operations[id].path, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: "INVALID_INPUT", field: "misspeled" });
    expect(charged(answer)).toBe(0);
  });

  const normalized = operationIds.filter((id) => rulesOf(id).unknownFields === "ignore");
  it.each(normalized)("%s ignores an unknown field", async (id) => {
    const answer = await call(mock, operations[id].path, { ...(requestExample(id) as object), misspeled: true });
    expect(answer.status).toBe(200);
  });

  it("answers two creator identifiers at once with INVALID_INPUT", async () => {
    const answer = await call(mock, "/scrape/shortvideo/favorites", { handle: "a", unique_id: "b" });
    expect(answer.body).toMatchObject({ error: "INVALID_INPUT", reason: "oneOf" });
  });
});

describe("body size", () => {
  it("answers a body over 32 KB with 413 PAYLOAD_TOO_LARGE, charged 0", async () => {
    const answer = await call(mock, profile, { username: "creator", padding: "x".repeat(32 * 1024) });
    expect(answer.status).toBe(413);
    expect(answer.body.error).toBe("PAYLOAD_TOO_LARGE");
    expect(charged(answer)).toBe(0);
  });

  it("reads a body of exactly 32 KB", async () => {
    const prefix = '{"username":"creator","padding":"';
    const body = `${prefix}${"x".repeat(32 * 1024 - prefix.length - 2)}"}`;
    expect(Buffer.byteLength(body)).toBe(32 * 1024);
    expect((await call(mock, profile, body, { raw: true })).status).toBe(200);
  });

  it("answers a body of megabytes with 413 without reading it all", async () => {
    const answer = await call(mock, profile, "x".repeat(3 * 1024 * 1024), { raw: true });
    expect(answer.status).toBe(413);
  });
});

describe("unknown paths", () => {
  it("answers an unknown focused operation with ENDPOINT_NOT_FOUND (the sandbox's 404), charged 0", async () => {
    const answer = await call(mock, "/scrape/shortvideo/no-such-operation", {});
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: "ENDPOINT_NOT_FOUND", platform: "shortvideo" });
    expect(charged(answer)).toBe(0);
  });

  it("answers a path outside the platform namespaces with the framework's plain 404", async () => {
    for (const path of ["/scrape/no-such-platform/profile", "/scrape/shortvideo/profile/extra"]) {
      const answer = await call(mock, path, {});
      expect(answer.status).toBe(404);
      expect(answer.body).toBe("Not Found");
    }
    const outside = await fetch(`${mock.url}/elsewhere`);
    expect(outside.status).toBe(404);
  });

  it("answers another method with ENDPOINT_NOT_FOUND and Allow: POST", async () => {
    const answer = await fetch(`${mock.baseUrls.scraper}${profile}`, { method: "PUT", headers: { "x-api-key": "scrape_live_x" } });
    expect(answer.status).toBe(404);
    expect(answer.headers.get("allow")).toBe("POST");
    const body = await answer.json();
    expect(validateResponse("shortvideoProfile", "default", body)).toEqual({ valid: true });
    expect(body.error).toBe("ENDPOINT_NOT_FOUND");
  });
});

describe("the connection", () => {
  it("survives a client that hangs up mid-body", async () => {
    const { port, hostname } = new URL(mock.url);
    await new Promise<void>((resolve, reject) => {
      const socket = new Socket();
      socket.on("error", reject);
      socket.connect(Number(port), hostname, () => {
        socket.write(`POST /api/v1${profile} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"user`);
        socket.destroy();
        resolve();
      });
    });
    expect((await call(mock, profile, { username: "creator" })).status).toBe(200);
  });

  // A small body usually comes whole with its head; these come apart, and must be read whole as they arrive, with the
  // next request on the connection after them.
  it.each([
    ["partly with its head, the rest in two parts", [9, 17]],
    ["wholly after its head", [0]],
  ])("reads a body that arrives %s, then the next request on the connection", async (_name, cuts) => {
    const { port, hostname } = new URL(mock.url);
    const body = JSON.stringify({ username: "split.creator" });
    const request = (payload: string) =>
      `POST /api/v1${profile} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-API-Key: scrape_live_split_body\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n`;
    const answers = await new Promise<string>((resolve, reject) => {
      const socket = new Socket();
      let received = "";
      socket.on("error", reject);
      socket.on("data", (chunk) => {
        received += chunk;
        if ((received.match(/HTTP\/1\.1 /g) ?? []).length === 2 && received.endsWith("}")) {
          socket.destroy();
          resolve(received);
        }
      });
      socket.connect(Number(port), hostname, async () => {
        socket.write(request(body) + body.slice(0, cuts[0]));
        for (const [index, cut] of cuts.entries()) {
          await new Promise((wait) => setTimeout(wait, 20));
          socket.write(body.slice(cut, cuts[index + 1]));
        }
        socket.write(request(body) + body);
      });
    });
    const bodies = answers.split(/HTTP\/1\.1 /).slice(1).map((answer) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)));
    expect(answers.match(/HTTP\/1\.1 \d+/g)).toEqual(["HTTP/1.1 200", "HTTP/1.1 200"]);
    expect(bodies.map((answer) => answer.data.username)).toEqual(["split.creator", "split.creator"]);
  });
});
