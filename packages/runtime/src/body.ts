import type { WireCount } from "./wire.js";

/**
 * The SDK's default for `maxResponseBytes`: 16 MiB. No response size is documented. The largest answers are
 * focused video lists: one video item of the description's example is 5.7 kB, so a page of 30 is about 170 kB; a
 * page of 30 posts or a platform list of 100 items is smaller. 16 MiB leaves two orders of magnitude of room without
 * letting a broken or hostile server fill the memory.
 */
export const defaultMaxResponseBytes = 16 * 1024 * 1024;

/** Why a body was not read to its end. */
export interface BodyTooLarge {
  /** The limit, `maxResponseBytes`. */
  limitBytes: number;
  /**
   * What exceeded it: the `content-length` the server declared (the bytes on the wire, compressed ones included),
   * checked before reading; the bytes off the connection, compressed ones as they came, counted while reading (with
   * the global fetch of Node, Deno and Bun); or the decoded bytes counted while reading.
   */
  counted: "content-length" | "wire" | "decoded";
  /** The declared length, or the bytes counted when the limit was passed. */
  bytes: number;
}

/**
 * Whether `text()` may read the body whole, cheaper than the reader loop below: the body is not content-encoded and
 * either declares a length within `maxBytes` (fetch reads no byte past it) or comes through a wire meter (one that
 * could not collect it), which ends the connection past `maxBytes` (an identity body's bytes on the wire are its
 * decoded bytes). The timeout still covers it: an abort rejects `text()`, and the Node fast path ends the connection.
 */
function readableWhole(response: Response, maxBytes: number, wire: WireCount | undefined): boolean {
  const encoding = response.headers.get("content-encoding");
  if (encoding !== null && encoding !== "identity") return false;
  const declared = response.headers.get("content-length");
  return declared === null ? wire !== undefined : /^\d+$/.test(declared) && Number(declared) <= maxBytes;
}

/** The body read whole by `text()`; what the meter counted, if it ended the connection past the limit. */
async function wholeText(response: Response, maxBytes: number, wire: WireCount | undefined): Promise<string | BodyTooLarge> {
  try {
    return await response.text();
  } catch (error) {
    if (wire?.exceeded) return { limitBytes: maxBytes, counted: "wire", bytes: wire.bytes };
    throw error;
  }
}

/** A body the meter collected off the connection, as text; what the meter counted, if it ended the connection past the limit. */
async function collectedText(collected: Promise<Uint8Array[]>, maxBytes: number, wire: WireCount): Promise<string | BodyTooLarge> {
  let chunks: Uint8Array[];
  try {
    chunks = await collected;
  } catch (error) {
    if (wire.exceeded) return { limitBytes: maxBytes, counted: "wire", bytes: wire.bytes };
    throw error;
  }
  // As `text()` decodes: UTF-8, a byte order mark dropped, a malformed sequence replaced.
  const decoder = new TextDecoder();
  let text = "";
  for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** The codings `readBody` decodes itself, where fetch hands them over undecoded (`WireAccess` `raw`). */
const decodable: Readonly<Record<string, CompressionFormat>> = { gzip: "gzip", "x-gzip": "gzip", deflate: "deflate" };

/**
 * The body's bytes as they come, counted into `count`, erroring the stream once they pass `maxBytes`: the byte meter of
 * the runtimes whose fetch hands a body over undecoded.
 */
function counted(body: ReadableStream<Uint8Array>, count: WireCount, maxBytes: number): ReadableStream<Uint8Array> {
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        count.bytes += chunk.byteLength;
        if (count.bytes <= maxBytes) return controller.enqueue(chunk);
        count.exceeded = true;
        controller.error(new Error(`more than ${maxBytes} bytes on the wire`));
      },
    }),
  );
}

/**
 * The body to read: as fetch gave it, or, where it hands the bytes over undecoded (`raw`), counted on the wire and then
 * decoded here (gzip, deflate: what the request asked for). A coding the request did not ask for cannot be decoded.
 */
function bodyStream(response: Response, body: ReadableStream<Uint8Array>, maxBytes: number, raw: WireCount | undefined): ReadableStream<Uint8Array> {
  if (!raw) return body;
  const coding = (response.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  const wire = counted(body, raw, maxBytes);
  if (coding === "identity") return wire;
  const format = decodable[coding];
  if (!format) throw new TypeError(`the body is encoded as ${coding.slice(0, 40)}, which the request did not ask for`);
  return wire.pipeThrough(new DecompressionStream(format) as unknown as TransformStream<Uint8Array, Uint8Array>);
}

/**
 * The whole body as text, or what made it too large. The limit holds for the declared `content-length` before
 * anything is read, and while the body streams in for the bytes on the wire and the decoded bytes, so an endless body,
 * a decompression bomb or a compressed body that decodes to nothing stops at `maxBytes`. The wire is counted by a
 * `WireMeter` (`wire`, Node's fetch), or here (`decode`: a fetch that handed the body over undecoded, which this
 * decodes), or not at all (a browser decodes before any script sees a byte: the decoded count and the timeout bound it). The
 * caller's timeout covers the read: an abort rejects it.
 */
export async function readBody(response: Response, maxBytes: number, wire?: WireCount, decode = false): Promise<string | BodyTooLarge> {
  const declared = response.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return { limitBytes: maxBytes, counted: "content-length", bytes: Number(declared) };
  }
  if (wire?.collected) return collectedText(wire.collected, maxBytes, wire);
  if (readableWhole(response, maxBytes, wire)) return wholeText(response, maxBytes, wire);
  if (response.body === null) return "";
  const raw = decode ? { bytes: 0, exceeded: false } : undefined;
  const onWire = raw ?? wire;
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    reader = bodyStream(response, response.body, maxBytes, raw).getReader();
  } catch (error) {
    await response.body.cancel().catch(() => undefined);
    throw error;
  }
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  for (;;) {
    let read: ReadableStreamReadResult<Uint8Array>;
    try {
      read = await reader.read();
    } catch (error) {
      if (onWire?.exceeded) return { limitBytes: maxBytes, counted: "wire", bytes: onWire.bytes };
      throw error;
    }
    const { done, value } = read;
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return { limitBytes: maxBytes, counted: "decoded", bytes };
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** What a too-large body's error says. */
export function describeTooLarge(name: string, tooLarge: BodyTooLarge): string {
  return tooLarge.counted === "content-length"
    ? `${name}: the response declares ${tooLarge.bytes} bytes, more than maxResponseBytes (${tooLarge.limitBytes}); not read`
    : `${name}: the response body passed maxResponseBytes (${tooLarge.limitBytes} ${tooLarge.counted === "wire" ? "bytes on the wire" : "decoded bytes"}); the rest was not read`;
}
