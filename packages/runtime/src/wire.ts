/** The bytes of one response as they came off the connection, before any decompression. */
export interface WireCount {
  bytes: number;
  /** The count passed the limit and the connection was ended. */
  exceeded: boolean;
}

// Where Node's fetch (undici) keeps its dispatcher: read at each request, so a dispatcher the application set (a proxy
// agent, say) still carries it.
const globalDispatcher = Symbol.for("undici.globalDispatcher.1");

// The handler Node's fetch dispatches with, in undici 6 (Node 20, 22) and 7 (Node 24) alike: `onConnect` gets the
// `abort` that ends the connection, `onData` each chunk of the body as it came. A handler without them (a later
// undici's) is left unmetered, and the decoded count holds alone.
interface DispatchHandler {
  onConnect?(abort: (reason: Error) => void, ...rest: unknown[]): unknown;
  onData?(chunk: Uint8Array): boolean;
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
  constructor(readonly limit: number) {}

  dispatch(options: unknown, handler: DispatchHandler): boolean {
    this.bytes = 0;
    return (globalThis as unknown as { [globalDispatcher]: Dispatcher })[globalDispatcher].dispatch(options, meter(handler, this));
  }
}

/**
 * A meter for a request through `fetchImpl`, when it is the global fetch. Another fetch (one passed as an option, or a
 * runtime without undici) takes no dispatcher, and the decoded count holds alone there.
 */
export const wireMeter = (fetchImpl: typeof fetch, limit: number): WireMeter | undefined =>
  fetchImpl === globalThis.fetch ? new WireMeter(limit) : undefined;

/**
 * The fetch's handler, with its body chunks counted and the connection ended past the meter's limit: past it, no
 * chunk reaches the fetch, and the body's reader fails. The handler's own callbacks run on the metered one (its
 * prototype), so the state they keep on `this` stays in one place.
 */
function meter(handler: DispatchHandler, count: WireMeter): DispatchHandler {
  const { onConnect, onData } = handler;
  if (!onConnect || !onData) return handler;
  const metered: DispatchHandler = Object.create(handler);
  let abort: ((reason: Error) => void) | undefined;
  metered.onConnect = function (given, ...rest) {
    abort = given;
    return onConnect.call(this, given, ...rest);
  };
  metered.onData = function (chunk) {
    count.bytes += chunk.byteLength;
    if (count.bytes <= count.limit || !abort) return onData.call(this, chunk);
    count.exceeded = true;
    abort(new Error(`more than ${count.limit} bytes on the wire`));
    return false;
  };
  return metered;
}
