import type { ServerResponse } from "node:http";
import type { Writable } from "node:stream";
import { constants, createBrotliCompress, createGzip } from "node:zlib";
import type { Handler } from "./index.js";

// Answers that misbehave on purpose, for the scripted server: what a broken gateway, a compromised host or a hostile
// server could send. Nothing here materializes a large body: endless and compressed bodies are produced chunk by chunk,
// only as fast as the socket (or the compressor) takes them, and stop when the client goes away.

/** Any status, body text and headers, as given (`null`, `[]`, HTML, truncated JSON …). */
export const raw =
  (status: number, body: string, headers: Record<string, string> = {}): Handler =>
  (_request, response) =>
    void response.writeHead(status, { "content-type": "application/json", ...headers }).end(body);

/** A redirect to `location` (absolute, or relative to the request). */
export const redirect =
  (status: number, location: string): Handler =>
  (_request, response) =>
    void response.writeHead(status, { location }).end();

/** Never answers: the client waits for headers until it gives up. */
export const silence = (): Handler => () => undefined;

/** Headers at once, then one byte every `everyMs`, forever: a body that never completes. */
export const trickle =
  (everyMs = 50): Handler =>
  (_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.write("{");
    const timer = setInterval(() => response.write(" "), everyMs);
    response.on("close", () => clearInterval(timer));
  };

/** A 200 that declares `bytes` in `content-length`, then sends a little and waits. */
export const declares =
  (bytes: number): Handler =>
  (_request, response) => {
    response.writeHead(200, { "content-type": "application/json", "content-length": String(bytes) });
    response.write('{"data":');
  };

const chunk = Buffer.alloc(64 * 1024);

/**
 * Writes `piece` (zeros by default) into `sink` until `total` bytes went in or `response` closed, waiting whenever `sink`
 * is full; then ends `sink`, unless `hold` (the connection stays open, nothing more is sent).
 */
function pump(response: ServerResponse, sink: Writable, total: number, piece: Buffer = chunk, hold = false): void {
  let written = 0;
  let closed = false;
  response.on("close", () => {
    closed = true;
    if (sink !== response) sink.destroy();
  });
  const step = () => {
    while (!closed && written < total) {
      const next = total - written < piece.length ? piece.subarray(0, total - written) : piece;
      written += next.length;
      if (!sink.write(next)) {
        sink.once("drain", step);
        return;
      }
    }
    if (!closed && !hold) sink.end();
  };
  step();
}

/** A 200 JSON body that never ends (`{"data":` and then NUL bytes), as fast as the client reads it. */
export const endless = (): Handler => (_request, response) => {
  response.writeHead(200, { "content-type": "application/json" });
  response.write('{"data":');
  pump(response, response, Number.POSITIVE_INFINITY);
};

/**
 * A compression bomb: `decodedBytes` of zeros (e.g. 1 GiB), compressed lazily chunk by chunk with `gzip` or `br`
 * (brotli) at their fastest setting, so a few kB on the wire decode to the full size.
 */
export const bomb =
  (encoding: "gzip" | "br", decodedBytes: number): Handler =>
  (_request, response) => {
    const compressor = encoding === "gzip" ? createGzip({ level: 1 }) : createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
    response.writeHead(200, { "content-type": "application/json", "content-encoding": encoding });
    compressor.pipe(response);
    pump(response, compressor, decodedBytes);
  };

// The gzip header (RFC 1952: magic, deflate, no flags, no time, unknown OS), and an empty non-final stored deflate block
// (RFC 1951: BFINAL 0, BTYPE 00, LEN 0, NLEN 0xffff), which decodes to nothing.
const gzipHeader = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
const emptyBlocks = Buffer.alloc(64 * 1024 * 5);
for (let at = 0; at < emptyBlocks.length; at += 5) emptyBlocks.set([0, 0, 0, 0xff, 0xff], at);

/**
 * A gzip body that never ends and decodes to nothing: the header, then empty stored blocks as fast as the client reads
 * them, forever or until `bytes` of them were sent (then it holds the connection, sending nothing more). Only a count
 * of the bytes on the wire stops it; the decoded count stays at 0. With `bytes`, what a client can have counted is
 * bounded by what was sent, however long a starved client left its socket unread.
 */
export const inflatesToNothing =
  (bytes = Number.POSITIVE_INFINITY): Handler =>
  (_request, response) => {
    response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
    response.write(gzipHeader);
    pump(response, response, bytes, emptyBlocks, true);
  };
