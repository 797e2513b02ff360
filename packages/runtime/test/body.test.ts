import { Agent, fetch as undiciFetch, getGlobalDispatcher, setGlobalDispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Handler } from "@content-scraper/test-server";
import { readBody } from "../src/body.js";
import { deadline } from "../src/deadline.js";
import { wireAccess } from "../src/runtimes.js";
import { hostile, startServer } from "./server.js";

// `readBody` against real bodies through the global fetch, which decodes a compressed body before a reader sees a byte:
// Node's own (undici 6 on Node 20 and 22), and undici 7's fetch and agent (Node 24's). The runtime matrix runs the same
// limits on Node 26 (undici 8), Deno, Bun, workerd and Chromium.

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const limit = 64 * 1024;

/** One answer of the server through the global fetch, read as `send` reads it, within `timeoutMs`. */
async function read(timeoutMs?: number, fetchImpl: typeof fetch = globalThis.fetch) {
  const time = deadline(timeoutMs, undefined);
  try {
    const response = await time.race(fetchImpl(server.origin, { signal: time.signal }));
    return await readBody(response, limit, time, wireAccess(fetchImpl).kind === "raw");
  } finally {
    time.clear();
  }
}

// A byte order mark, then JSON whose "é" (0xc3 0xa9) is split between two chunks.
const bom = Buffer.from([0xef, 0xbb, 0xbf]);
const splitUtf8: Handler = (_request, response) => {
  response.writeHead(200, { "content-type": "application/json" });
  response.write(Buffer.concat([bom, Buffer.from('{"name":"caf'), Buffer.from([0xc3])]));
  setTimeout(() => response.end(Buffer.concat([Buffer.from([0xa9]), Buffer.from('"}')])), 20);
};

function eachFetch() {
  it("is a fetch that decodes for itself: only decoded bytes can be counted", () => {
    expect(wireAccess(globalThis.fetch).kind).toBe("decoded");
  });

  it("stops a body that is not content-encoded and never ends: its bytes are its bytes on the wire", async () => {
    server.script(hostile.endless());
    expect(await read()).toMatchObject({ limitBytes: limit, counted: "wire", bytes: expect.any(Number) });
  });

  it("stops a decompression bomb on its decoded bytes", async () => {
    server.script(hostile.bomb("gzip", 4 * limit));
    expect(await read()).toMatchObject({ limitBytes: limit, counted: "decoded" });
  });

  it("reads a compressed body within the limit whole, decoded", async () => {
    server.script(hostile.bomb("gzip", 50_000));
    const body = await read();
    expect(typeof body === "string" && body.length).toBe(50_000);
  });

  it("ends a gzip body that never ends and decodes to nothing at the deadline", async () => {
    server.script(hostile.inflatesToNothing());
    await expect(read(300)).rejects.toThrow("no answer within 300 ms");
  });

  it("decodes as text() would: a byte order mark dropped, a character split between chunks joined", async () => {
    server.script(splitUtf8);
    expect(await read()).toBe('{"name":"café"}');
  });

  it("fails a body that is cut off, and ends one that trickles at the deadline", async () => {
    server.script((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      response.write('{"data":');
      setTimeout(() => response.destroy(), 20);
    });
    await expect(read()).rejects.toThrow();
    server.script(hostile.trickle(10));
    await expect(read(200)).rejects.toThrow("no answer within 200 ms");
  });

  it("ends a stalled answer at the deadline through a fetch that ignores its signal", async () => {
    const deaf: typeof fetch = (input, init) => globalThis.fetch(input, { ...init, signal: null });
    server.script(hostile.silence());
    await expect(read(200, deaf)).rejects.toThrow("no answer within 200 ms");
    server.script((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"data":');
    });
    await expect(read(200, deaf)).rejects.toThrow("no answer within 200 ms");
  });
}

describe("Node's own fetch", () => {
  eachFetch();
});

describe("undici 7 (Node 24's fetch and dispatcher)", () => {
  const nodeFetch = globalThis.fetch;
  const nodeDispatcher = getGlobalDispatcher();
  const agent = new Agent();
  beforeAll(() => {
    globalThis.fetch = undiciFetch as unknown as typeof fetch;
    setGlobalDispatcher(agent);
  });
  afterAll(async () => {
    globalThis.fetch = nodeFetch;
    setGlobalDispatcher(nodeDispatcher);
    // The request the fetch that ignores its signal left waiting on a silent server is the agent's to end.
    await agent.destroy();
  });

  eachFetch();
});
