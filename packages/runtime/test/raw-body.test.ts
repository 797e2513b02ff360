// The body reader of the runtimes whose fetch hands a body over undecoded (Deno, Bun, workerd: `WireAccess` `raw`): it counts
// the bytes as they come and decodes gzip and deflate itself. Node's `Response` never decodes, so a response built here
// over raw bytes is exactly what Deno and Bun hand `readBody`; the runtime matrix runs the same cases on them for real.
import { deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readBody } from "../src/body.js";
import { deadline } from "../src/deadline.js";

const limit = 64 * 1024;
const unbounded = deadline(undefined, undefined);

/** A response over `chunks` (raw bytes, as off the wire), an endless stream when `chunks` is a function. */
function raw(encoding: string | undefined, chunks: Uint8Array[] | (() => Uint8Array)): Response & { pulled: () => number } {
  let pulled = 0;
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = typeof chunks === "function" ? chunks() : chunks[index++];
      if (chunk === undefined) return controller.close();
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  const response = new Response(stream, { headers: encoding ? { "content-encoding": encoding } : {} });
  return Object.assign(response, { pulled: () => pulled });
}

const gzipHeader = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
const emptyBlocks = new Uint8Array(16 * 1024);
for (let at = 0; at + 5 <= emptyBlocks.length; at += 5) emptyBlocks.set([0, 0, 0, 0xff, 0xff], at);

describe("readBody on a body handed over undecoded", () => {
  it.each([
    ["gzip", gzipSync],
    ["x-gzip", gzipSync],
    ["deflate", deflateSync],
  ])("decodes %s itself", async (encoding, compress) => {
    const json = JSON.stringify({ data: { username: "creator" }, padding: "x".repeat(5000) });
    expect(await readBody(raw(encoding, [compress(json)]), limit, unbounded, true)).toBe(json);
  });

  it("reads an identity body as it came", async () => {
    expect(await readBody(raw(undefined, [new TextEncoder().encode('{"a":1}')]), limit, unbounded, true)).toBe('{"a":1}');
  });

  it("stops a gzip body that never ends and decodes to nothing at the limit, counted on the wire", async () => {
    let first = true;
    const response = raw("gzip", () => {
      if (!first) return emptyBlocks;
      first = false;
      return gzipHeader;
    });
    expect(await readBody(response, limit, unbounded, true)).toMatchObject({ limitBytes: limit, counted: "wire" });
    expect(response.pulled()).toBeLessThan(2 * limit);
  });

  it("stops a bomb at the limit of decoded bytes", async () => {
    expect(await readBody(raw("gzip", [gzipSync(Buffer.alloc(4 * limit))]), limit, unbounded, true)).toMatchObject({ counted: "decoded" });
  });

  it("refuses a coding the request did not ask for", async () => {
    await expect(readBody(raw("br", [new Uint8Array([1, 2, 3])]), limit, unbounded, true)).rejects.toThrow(/encoded as br/);
  });
});
