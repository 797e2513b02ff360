import { callFetch } from "./send.js";
/** The bytes of one response as they came off the connection, before any decompression. */
export interface WireCount {
  bytes: number;
  /** The count passed the limit and the connection was ended. */
  exceeded: boolean;
  /**
   * The body itself, kept as it came off the connection when it is not content-encoded (its bytes on the wire are the
   * body): its chunks once it ended, rejected if the connection failed or was ended first. Fetch's own stream gets
   * them only then, for whoever else reads the response.
   */
  collected?: Promise<Uint8Array[]> | undefined;
}

// Where Node's fetch (undici) keeps its dispatcher: read at each request, so a dispatcher the application set (a proxy
// agent, say) still carries it.
const globalDispatcher = Symbol.for("undici.globalDispatcher.1");

// The handler Node's fetch dispatches with, in undici 6 (Node 20, 22) and 7 (Node 24) alike: `onConnect` gets the
// `abort` that ends the connection, `onHeaders` the status and the raw headers (name, value, name, value…), `onData`
// each chunk of the body as it came, then `onComplete` or `onError`. A handler without them (a later undici's) is left
// unmetered, and the decoded count holds alone.
interface DispatchHandler {
  onConnect?(abort: (reason: Error) => void, ...rest: unknown[]): unknown;
  onHeaders?(status: number, rawHeaders: unknown[], ...rest: unknown[]): boolean;
  onData?(chunk: Uint8Array): boolean;
  onComplete?(...rest: unknown[]): unknown;
  onError?(error: Error): unknown;
}
interface Dispatcher {
  dispatch(options: unknown, handler: DispatchHandler): boolean;
}

/**
 * Node's fetch decompresses a body before a reader sees a byte, so a gzip body that never ends and decodes to nothing
 * would pass any count of decoded bytes. A meter is the `dispatcher` Node's fetch takes: it counts each response's
 * bytes as they come off the connection and ends the connection once they pass `limit`, so `readBody` can tell.
 * One per attempt: each request of it (a redirect followed) counts from 0.
 */
export class WireMeter implements WireCount {
  bytes = 0;
  exceeded = false;
  /** Why the attempt was ended (`end`), if it was. */
  ended: Error | undefined;
  /** Ends the current request's connection; set once it has one. */
  abort: ((reason: Error) => void) | undefined;
  /**
   * When the current request was handed to its connection to be written (a `performance.now()` time): how old the
   * service's figures in its answer can be, without the time the request spent in fetch and the dispatcher's queue.
   */
  departedAt: number | undefined;
  collected: Promise<Uint8Array[]> | undefined;
  #refuse: ((reason: Error) => void) | undefined;
  constructor(readonly limit: number) {}

  /** `fetchImpl` through this meter: its answer, or the reason the attempt was ended while it waited for one. */
  fetch(fetchImpl: typeof fetch, url: string, init: RequestInit): Promise<Response> {
    return new Promise((resolve, reject) => {
      // Ended between two requests of the attempt (a redirect to follow): nothing more is sent.
      if (this.ended) return reject(this.ended);
      this.#refuse = reject;
      callFetch(fetchImpl, url, { ...init, dispatcher: this } as RequestInit).then(resolve, reject);
    });
  }

  dispatch(options: unknown, handler: DispatchHandler): boolean {
    this.bytes = 0;
    this.abort = undefined;
    this.departedAt = undefined;
    this.collected = undefined;
    return (globalThis as unknown as { [globalDispatcher]: Dispatcher })[globalDispatcher].dispatch(options, meter(handler, this));
  }

  /**
   * Ends the attempt: a fetch still waiting for its answer rejects with `reason` at once, and the request's connection
   * ends now or as soon as it has one (a request still connecting, or queued by the dispatcher, included). The
   * attempt's timeout uses this instead of a signal when the caller gave none: a signal costs fetch far more per
   * request (its own controller, listeners and a finalization registry) than the timer it carries.
   */
  end(reason: Error): void {
    this.ended = reason;
    this.abort?.(reason);
    this.#refuse?.(reason);
  }
}

/** Whether raw headers (name, value, name, value…; buffers or strings) declare any content coding but identity. */
function encoded(rawHeaders: readonly unknown[]): boolean {
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (String(rawHeaders[i]).toLowerCase() === "content-encoding" && String(rawHeaders[i + 1]).trim().toLowerCase() !== "identity") return true;
  }
  return false;
}

/** A body's chunks as they come, settled when it ends or fails. */
class Collection {
  readonly chunks: Uint8Array[] = [];
  readonly done: Promise<Uint8Array[]>;
  end!: () => void;
  fail!: (error: Error) => void;
  constructor() {
    this.done = new Promise((resolve, reject) => {
      this.end = () => resolve(this.chunks);
      this.fail = reject;
    });
    // A body nobody reads (one refused by its declared length, say) must not fail as an unhandled rejection.
    this.done.catch(() => undefined);
  }
}

/**
 * The fetch's handler, with its body chunks counted and the connection ended past the meter's limit: past it, no
 * chunk reaches the fetch, and the body's reader fails. A body that is not content-encoded is collected here
 * (`collected`) and read from here, not through fetch's stream, whose queue and reader cost more than the rest of the
 * answer's reading; the stream gets the chunks once the body is complete. The callbacks are replaced on the handler
 * itself (a fresh object per request), so its state stays on one object and V8 keeps its shape: a handler made the
 * prototype of another would be turned into a slow prototype object on every request.
 */
function meter(handler: DispatchHandler, count: WireMeter): DispatchHandler {
  const { onConnect, onHeaders, onData, onComplete, onError } = handler;
  if (!onConnect || !onData) return handler;
  let collection: Collection | undefined;
  const collecting = onHeaders && onComplete && onError;
  handler.onConnect = function (abort, ...rest) {
    count.abort = abort;
    // The dispatcher calls this as it writes the request on a connection.
    count.departedAt = performance.now();
    const connected = onConnect.call(this, abort, ...rest);
    if (count.ended) abort(count.ended);
    return connected;
  };
  handler.onData = function (chunk) {
    count.bytes += chunk.byteLength;
    if (count.bytes <= count.limit || !count.abort) {
      if (!collection) return onData.call(this, chunk);
      collection.chunks.push(chunk);
      return true;
    }
    count.exceeded = true;
    count.abort(new Error(`more than ${count.limit} bytes on the wire`));
    return false;
  };
  if (!collecting) return handler;
  handler.onHeaders = function (status, rawHeaders, ...rest) {
    // An interim answer (1xx) is followed by the final one's headers, which decide.
    collection = status >= 200 && !encoded(rawHeaders) ? new Collection() : undefined;
    count.collected = collection?.done;
    return onHeaders.call(this, status, rawHeaders, ...rest);
  };
  handler.onComplete = function (...rest) {
    if (collection) {
      collection.end();
      // Fetch's stream gets the body too, at its end, for whoever reads the response itself (a fetch wrapped by the
      // application that records bodies, say). Unread, it costs far less than being read through.
      for (const chunk of collection.chunks) onData.call(this, chunk);
    }
    return onComplete.call(this, ...rest);
  };
  handler.onError = function (error) {
    collection?.fail(error);
    return onError.call(this, error);
  };
  return handler;
}
