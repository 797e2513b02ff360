import { Agent, fetch as undiciFetch, getGlobalDispatcher, setGlobalDispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBody } from "../src/body.js";
import { wireAccess } from "../src/runtimes.js";
import { WireMeter } from "../src/wire.js";
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

/** Reads one answer of the server through the global fetch and a meter, as `send` does. */
async function readMetered() {
  expect(wireAccess(globalThis.fetch).kind).toBe("meter");
  const meter = new WireMeter(limit);
  const response = await globalThis.fetch(server.origin, { dispatcher: meter } as RequestInit);
  return readBody(response, limit, meter);
}

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
