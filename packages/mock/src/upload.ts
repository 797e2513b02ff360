import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";
import type { BodyRoom, Held, Holder, Refusal } from "./body-room.js";

// A request body as it comes off the wire: each chunk is counted against the body room as Node hands it over (the bytes
// Node has already read are held whatever the sandbox does), and a body that stops arriving is ended, so that a caller
// who announces a large body and sends little of it holds what it sent, for seconds.

// A body this far over a surface's limit is not drained before the 413: the connection is closed after the answer.
const drainLimitBytes = 1024 * 1024;

export type Upload =
  /** The whole body (`undefined` for none), which holds its room until `release`. */
  | { kind: "body"; body: Buffer | undefined; release: () => void }
  /** Over the limit; `abandon` when the rest of it was not read, so the connection closes after the answer. */
  | { kind: "too large"; abandon: boolean }
  /** No byte arrived for `stallMs`: the connection closes after the answer. */
  | { kind: "stalled" }
  /** The room, or the peer's share of it, could not take the bytes that arrived; the rest was read without being kept. */
  | { kind: "no room"; refusal: Refusal }
  /** The client hung up before the end of its body: there is no one to answer. */
  | { kind: "gone" };

export interface UploadLimits {
  /** The largest body the surface reads. */
  limit: number;
  room: BodyRoom;
  /** The connection the request came on. */
  holder: Holder;
  /** How long a body may go without a byte. */
  stallMs: number;
}

const none: Upload = { kind: "body", body: undefined, release: () => {} };

/** A request as read here: Node's `IncomingMessage`, or any stream of bytes with its head's headers. */
type Incoming = Readable & { readonly headers: IncomingHttpHeaders };

/**
 * Reads a request's body up to `limit` bytes, counted against the room as they arrive. A body the room cannot take, or
 * one over the limit, is read to its end without being kept (up to `drainLimitBytes` past the limit), so the client,
 * which may still be sending, reads its answer rather than a reset. A request without a body (no `Transfer-Encoding`,
 * no `Content-Length` above 0, as Node's parser reads a request) is answered at once: it touches no room.
 */
export function readUpload(request: Incoming, { limit, room, holder, stallMs }: UploadLimits): Promise<Upload> {
  const { "transfer-encoding": encoding, "content-length": length } = request.headers;
  if (encoding === undefined && !(Number(length) > 0)) return Promise.resolve(none);
  if (request.destroyed) return Promise.resolve({ kind: "gone" });
  return new Promise((resolve) => {
    const held: Held = { own: 0, shared: 0 };
    let chunks: Buffer[] = [];
    let size = 0;
    let refusal: Refusal | undefined;
    let ended = false;
    let settled = false;
    const drop = () => {
      chunks = [];
      room.give(holder, held);
    };
    const settle = (upload: Upload) => {
      if (settled) return;
      settled = true;
      clearTimeout(stall);
      if (upload.kind !== "body") drop();
      // Node reads no more of the connection, which closes after the answer.
      if (!ended) request.pause();
      resolve(upload);
    };
    const stall = setTimeout(() => settle(size > limit ? { kind: "too large", abandon: true } : { kind: "stalled" }), stallMs);
    request.on("data", (chunk: Buffer) => {
      if (settled) return;
      stall.refresh();
      size += chunk.length;
      if (size > limit + drainLimitBytes) return settle({ kind: "too large", abandon: true });
      if (size > limit || refusal !== undefined) return drop();
      refusal = room.take(holder, held, chunk.length);
      if (refusal === undefined) chunks.push(chunk);
      else drop();
    });
    request.on("end", () => {
      ended = true;
      if (size > limit) return settle({ kind: "too large", abandon: false });
      if (refusal !== undefined) return settle({ kind: "no room", refusal });
      const body = size === 0 ? undefined : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
      settle({ kind: "body", body, release: () => room.give(holder, held) });
    });
    request.on("error", () => settle({ kind: "gone" }));
    request.on("close", () => {
      if (!ended) settle({ kind: "gone" });
    });
  });
}
