import { Agent, fetch as undiciFetch, getGlobalDispatcher, setGlobalDispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBody } from "../src/body.js";
import { wireAccess } from "../src/runtimes.js";
import { WireMeter } from "../src/wire.js";
import type { Handler } from "@content-scraper/test-server";
import { hostile, startServer, withGlobalDispatcher } from "./server.js";

// The meter against real bodies: Node's own fetch (undici 6 on Node 20 and 22), and undici 7's fetch and agent, which
// are Node 24's global fetch and dispatcher.

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const limit = 64 * 1024;

/** Sends one request to the server through the global fetch and a meter, as `send` does. */
async function fetchMetered() {
  expect(wireAccess(globalThis.fetch).kind).toBe("meter");
  const meter = new WireMeter(limit);
  const response = await globalThis.fetch(server.origin, { dispatcher: meter } as RequestInit);
  return { meter, response };
}

/** Reads one answer of the server through the global fetch and a meter, as `send` does. */
async function readMetered() {
  const { meter, response } = await fetchMetered();
  return readBody(response, limit, meter);
}

// A byte order mark, then JSON whose "é" (0xc3 0xa9) is split between two chunks.
const bom = Buffer.from([0xef, 0xbb, 0xbf]);
const splitUtf8: Handler = (_request, response) => {
  response.writeHead(200, { "content-type": "application/json" });
  response.write(Buffer.concat([bom, Buffer.from('{"name":"caf'), Buffer.from([0xc3])]));
  setTimeout(() => response.end(Buffer.concat([Buffer.from([0xa9]), Buffer.from('"}')])), 20);
};

function eachFetch() {
  it("stops a gzip body that never ends and decodes to nothing, counted on the wire", async () => {
    server.script(hostile.inflatesToNothing());
    expect(await readMetered()).toMatchObject({ limitBytes: limit, counted: "wire", bytes: expect.any(Number) });
  });

  it("reads a compressed body within the limit whole, decoded", async () => {
    server.script(hostile.bomb("gzip", 50_000));
    const body = await readMetered();
    expect(typeof body === "string" && body.length).toBe(50_000);
  });

  it("reads a body that is not content-encoded off the connection, decoded as text() would, leaving fetch's stream whole for others", async () => {
    server.script(splitUtf8);
    const { meter, response } = await fetchMetered();
    expect(await readBody(response, limit, meter)).toBe('{"name":"café"}');
    expect(meter.bytes).toBe(bom.length + '{"name":"café"}'.length + 1);
    // Not read through fetch's stream, which still holds the whole body (a fetch wrapped by the application reads it).
    expect(response.bodyUsed).toBe(false);
    expect(await response.text()).toBe('{"name":"café"}');
  });

  it("stops a body that is not content-encoded and never ends, counted on the wire", async () => {
    server.script(hostile.endless());
    expect(await readMetered()).toMatchObject({ limitBytes: limit, counted: "wire", bytes: expect.any(Number) });
  });

  it("fails a body that is cut off, and one whose attempt is ended while it comes", async () => {
    server.script((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      response.write('{"data":');
      setTimeout(() => response.destroy(), 20);
    });
    await expect(readMetered()).rejects.toThrow();
    server.script(hostile.trickle(10));
    const { meter, response } = await fetchMetered();
    setTimeout(() => meter.end(new Error("no answer within 50 ms")), 50);
    await expect(readBody(response, limit, meter)).rejects.toThrow("no answer within 50 ms");
  });
}

describe("Node's own fetch", () => {
  eachFetch();

  it("sends through the dispatcher the application set", async () => {
    const dispatched: unknown[] = [];
    await withGlobalDispatcher(
      (own) => ({ dispatch: (options, handler) => dispatched.push(options) > 0 && own.dispatch(options, handler) }),
      async () => {
        server.script(hostile.inflatesToNothing());
        expect(await readMetered()).toMatchObject({ counted: "wire" });
      },
    );
    expect(dispatched).toHaveLength(1);
  });
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
    await agent.close();
  });

  eachFetch();
});
