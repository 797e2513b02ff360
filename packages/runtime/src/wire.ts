/** The bytes of one response as they came off the connection, before any decompression. */
export interface WireCount {
  bytes: number;
  /** The count passed the limit and the connection was ended. */
  exceeded: boolean;
}

// Where Node's fetch (undici) keeps its dispatcher: read at each request, so a dispatcher the application set (a proxy
// agent, say) still carries it.
const globalDispatcher = Symbol.for("undici.globalDispatcher.1");

// The callbacks a dispatch handler may have: undici 6's (Node 20 and 22), and undici 7's (Node 24). The meter forwards
// only those the fetch's own handler has, so the dispatcher still takes it for the kind it is.
const callbacks = [
  "onConnect",
  "onUpgrade",
  "onResponseStarted",
  "onHeaders",
  "onData",
  "onComplete",
  "onError",
  "onBodySent",
  "onRequestSent",
  "onRequestStart",
  "onRequestUpgrade",
  "onResponseStart",
  "onResponseData",
  "onResponseEnd",
  "onResponseError",
] as const;

type Callback = (...args: never[]) => unknown;
type DispatchHandler = Partial<Record<(typeof callbacks)[number], Callback>>;
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
    return (globalThis as unknown as { [globalDispatcher]: Dispatcher })[globalDispatcher].dispatch(options, meter(handler, this, this.limit));
  }
}

/**
 * A meter for a request through `fetchImpl`, when it is the global fetch. Another fetch (one passed as an option, or a
 * runtime without undici) takes no dispatcher, and the decoded count holds alone there.
 */
export const wireMeter = (fetchImpl: typeof fetch, limit: number): WireMeter | undefined =>
  fetchImpl === globalThis.fetch ? new WireMeter(limit) : undefined;

/** The fetch's handler, with its body chunks counted and the connection ended past `limit`. */
function meter(handler: DispatchHandler, count: WireCount, limit: number): DispatchHandler {
  const metered: DispatchHandler = {};
  for (const name of callbacks) {
    const callback = handler[name];
    if (callback) metered[name] = callback.bind(handler);
  }
  let abort: ((reason: Error) => void) | undefined;
  // Past the limit, no chunk reaches the fetch: the connection ends with `WireLimit`, and the body's reader fails.
  const over = (chunk: Uint8Array, end: (reason: Error) => void) => {
    count.bytes += chunk.byteLength;
    if (count.bytes <= limit) return false;
    count.exceeded = true;
    end(new Error(`more than ${limit} bytes on the wire`));
    return true;
  };
  if (handler.onConnect) {
    const onConnect = handler.onConnect as (abort: (reason: Error) => void, ...rest: unknown[]) => unknown;
    metered.onConnect = ((given: (reason: Error) => void, ...rest: unknown[]) => {
      abort = given;
      return onConnect.call(handler, given, ...rest);
    }) as Callback;
  }
  if (handler.onData) {
    const onData = handler.onData as (chunk: Uint8Array) => boolean;
    metered.onData = ((chunk: Uint8Array) => (abort && over(chunk, abort) ? false : onData.call(handler, chunk))) as Callback;
  }
  if (handler.onResponseData) {
    const onResponseData = handler.onResponseData as (controller: { abort(reason: Error): void }, chunk: Uint8Array) => unknown;
    metered.onResponseData = ((controller: { abort(reason: Error): void }, chunk: Uint8Array) =>
      over(chunk, (reason) => controller.abort(reason)) ? undefined : onResponseData.call(handler, controller, chunk)) as Callback;
  }
  return metered;
}
