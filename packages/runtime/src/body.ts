
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
   * What exceeded it: the `content-length` the server declared, checked before reading; the body's bytes as they came
   * off the connection (a body without a content coding, or a compressed one the runtime handed over undecoded and
   * that was counted before decoding); or the bytes the runtime's fetch decoded from a compressed body.
   */
  counted: "content-length" | "wire" | "decoded";
  /** The declared length, or the bytes counted when the limit was passed. */
  bytes: number;
}

/** What bounds the reading of a body in time: the attempt's deadline (`Deadline.race`). */
export interface BodyDeadline {
  race<T>(promise: Promise<T>): Promise<T>;
}

/** The content coding a response declares, `identity` when none. */
const codingOf = (response: Response) => (response.headers.get("content-encoding") ?? "identity").trim().toLowerCase();

/** The codings `readBody` decodes itself, where fetch hands them over undecoded (`WireAccess` `raw`). */
const decodable: Readonly<Record<string, CompressionFormat>> = { gzip: "gzip", "x-gzip": "gzip", deflate: "deflate" };

/**
 * The body's bytes as they come, counted, erroring the stream once they pass `maxBytes`: the count on the wire of the
 * runtimes whose fetch hands a body over undecoded.
 */
function counted(body: ReadableStream<Uint8Array>, count: { bytes: number; exceeded: boolean }, maxBytes: number): ReadableStream<Uint8Array> {
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
 * The whole body as text, or what made it too large. The limit holds for the declared `content-length` before
 * anything is read, then for the bytes as they come: counted on the wire where the runtime hands a compressed body
 * over undecoded (`raw`: Deno, Bun, workerd, which this decodes), else as fetch gives them. Where fetch decodes
 * (Node, a browser, a fetch of the caller's), a compressed body's bytes on the wire cannot be counted through any
 * public API: its decoded bytes are, which stops a decompression bomb, and the deadline bounds a compressed body
 * that decodes to nothing. Every read races the deadline, so the time limit holds whether or not the fetch in use
 * ends its body stream on its signal.
 */
export async function readBody(response: Response, maxBytes: number, time: BodyDeadline, raw = false): Promise<string | BodyTooLarge> {
  const declared = response.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return { limitBytes: maxBytes, counted: "content-length", bytes: Number(declared) };
  }
  if (response.body === null) return "";
  const coding = codingOf(response);
  const wire = raw ? { bytes: 0, exceeded: false } : undefined;
  let stream: ReadableStream<Uint8Array> = response.body;
  if (wire) {
    stream = counted(stream, wire, maxBytes);
    if (coding !== "identity") {
      const format = decodable[coding];
      if (!format) {
        await response.body.cancel().catch(() => undefined);
        throw new TypeError(`the body is encoded as ${coding.slice(0, 40)}, which the request did not ask for`);
      }
      stream = stream.pipeThrough(new DecompressionStream(format) as unknown as TransformStream<Uint8Array, Uint8Array>);
    }
  }
  // Decoded bytes are the bytes on the wire when the body has no content coding.
  const decodedCount = coding === "identity" ? "wire" : "decoded";
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  for (;;) {
    let read: ReadableStreamReadResult<Uint8Array>;
    try {
      read = await time.race(reader.read());
    } catch (error) {
      reader.cancel().catch(() => undefined);
      if (wire?.exceeded) return { limitBytes: maxBytes, counted: "wire", bytes: wire.bytes };
      throw error;
    }
    const { done, value } = read;
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return { limitBytes: maxBytes, counted: wire ? "decoded" : decodedCount, bytes };
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
