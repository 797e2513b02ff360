import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { type Reach, reachOf } from "./addresses.js";
import { BodyRoom, type Refusal } from "./body-room.js";
import type { SandboxClock } from "./control/clock.js";
import type { RequestLog } from "./control/log.js";
import { type ControlApi, controlPath } from "./control/routes.js";
import { corsHeaders, preflight } from "./cors.js";
import { type Surface, type SurfaceRequest, type SurfaceResponse, text } from "./http.js";
import { bodyBytesAtOnce, bodyStallMs, connectionBodyBytes, maxConnections, peerBodyBytes, peerConnections } from "./limits.js";
import { Peers } from "./peers.js";
import { Target } from "./target.js";
import { readUpload, type Upload } from "./upload.js";

/** One surface of the shared host, mounted at `basePath` for the paths that start with `namespace` below it. */
export interface Mount {
  name: string;
  /** The surface's base path, as its description's server URL ends (`/api/v1`). */
  basePath: string;
  /**
   * The part of the path space below `basePath` that this surface owns (`/scrape/`; `/` for all of it; an operation's
   * path where the mount is that operation's own server).
   */
  namespace: string;
  surface: Surface;
}

export interface Gateway {
  /** The origin the gateway listens on (`http://127.0.0.1:4010`); on every interface (`0.0.0.0`), its loopback one. */
  url: string;
  /** Every origin it can be reached at: `url`, and beyond loopback each interface's address. */
  origins: string[];
  /** Whether it listens beyond loopback (`0.0.0.0`, a LAN address), where other machines can reach it. */
  beyondLoopback: boolean;
  /** Stops the sandbox: it stops listening and closes every connection. */
  close(): Promise<void>;
}

/** What the gateway serves besides the surfaces: the control API, and the log and clock every answer is recorded with. */
export interface GatewayOptions {
  port: number;
  host: string;
  /** The control API, below `controlPath`: made once the gateway knows where it listens, which its guard needs. */
  control: (reach: Reach & { port: number }) => ControlApi;
  log: RequestLog;
  clock: SandboxClock;
}

function send(response: ServerResponse, answer: SurfaceResponse, close = false, cors = true): void {
  // Not `{ ...answer.headers, "Content-Length": … }`: in V8 an object literal that starts with a spread and then adds
  // keys gets a hidden class of its own, which cost microseconds on every answer.
  const headers: Record<string, string> = Object.assign({}, answer.headers, cors ? corsHeaders(answer) : undefined);
  headers["Content-Length"] = String(Buffer.byteLength(answer.body));
  if (close) headers.Connection = "close";
  response.writeHead(answer.status, headers);
  response.end(answer.body);
}

/** A request as a surface reads it. Its query is parsed only if the surface reads it: most requests have none. */
class Asked implements SurfaceRequest {
  body: Buffer | undefined = undefined;

  constructor(
    readonly method: string,
    readonly basePath: string,
    readonly path: string,
    readonly headers: IncomingHttpHeaders,
    readonly target: Target,
  ) {}

  get query(): URLSearchParams {
    return this.target.query;
  }
}

const prefixOf = (mount: Mount) => mount.basePath + mount.namespace;

/**
 * Longest prefix first, so `/api/v1/scrape/` wins over a later `/api/v1/` surface. No surface may claim a path of the
 * control API's, nor the control API one of a surface's.
 */
function router(mounts: readonly Mount[]): (path: string) => Mount | undefined {
  const control = `${controlPath}/`;
  const clash = mounts.find((mount) => prefixOf(mount).startsWith(control) || control.startsWith(prefixOf(mount)));
  if (clash) throw new Error(`the ${clash.name} surface at ${prefixOf(clash)} overlaps the control API at ${control}`);
  const ordered = [...mounts].sort((a, b) => prefixOf(b).length - prefixOf(a).length).map((mount) => ({ mount, prefix: prefixOf(mount) }));
  return (path) => ordered.find(({ prefix }) => path.startsWith(prefix))?.mount;
}

// The control API's own bodies are small JSON objects.
const controlBodyBytes = 64 * 1024;

const MB = (bytes: number) => `${bytes / 1024 / 1024} MB`;
// Room frees as bodies end, and a stalled one ends within `bodyStallMs`: a short wait is worth a retry.
const busyRetryAfterSeconds = 1;
const noRoom: Record<Refusal, string> = {
  room: `Request bodies being read fill the ${MB(bodyBytesAtOnce)} the sandbox holds for them at once (the sandbox's limit, not the service's): retry after Retry-After.`,
  peer: `Request bodies being read from this peer (its address; on loopback, this connection) fill the ${MB(peerBodyBytes)} the sandbox holds for one peer (the sandbox's limit, not the service's): retry after Retry-After.`,
};
const stalled = text(408, `The request body made no progress for ${bodyStallMs / 1000} s (the sandbox's limit, not the service's): send the whole body without pausing.`);
const crowdedMessage = `This address holds ${peerConnections} connections to the sandbox, the most it keeps for one peer (the sandbox's limit, not the service's): reuse them, or retry after Retry-After.`;
// Written on a connection before any request arrives, so in full: a client that sends a request reads it as the answer.
const crowded = [
  "HTTP/1.1 503 Service Unavailable",
  "Content-Type: text/plain; charset=utf-8",
  `Retry-After: ${busyRetryAfterSeconds}`,
  "Connection: close",
  `Content-Length: ${Buffer.byteLength(crowdedMessage)}`,
  "",
  crowdedMessage,
].join("\r\n");

/**
 * The answer to a body the gateway did not keep, and whether the connection closes after it: it does where the rest of
 * the body, which stands before the next request, was not read.
 */
function unkept(upload: Exclude<Upload, { kind: "body" | "gone" }>, tooLarge: () => SurfaceResponse, busy: (message: string) => SurfaceResponse): { answer: SurfaceResponse; close: boolean } {
  if (upload.kind === "too large") return { answer: tooLarge(), close: upload.abandon };
  if (upload.kind === "no room") return { answer: busy(noRoom[upload.refusal]), close: false };
  return { answer: stalled, close: true };
}

/** One HTTP server for the shared host: each request goes to the surface mounted at its path, or to the control API. */
export function startGateway(mounts: readonly Mount[], options: GatewayOptions): Promise<Gateway> {
  const route = router(mounts);
  const { port, host, log, clock } = options;
  // Set once listening, before the first request arrives.
  let control: ControlApi;
  const room = new BodyRoom({ own: connectionBodyBytes, shared: bodyBytesAtOnce, peer: peerBodyBytes });
  const peers = new Peers(peerConnections);

  /**
   * The answer to one request: the surface that gave it (none outside every surface), whether to close the connection
   * after it, whether the request log keeps it (not preflights, nor the control API's own calls), and whether it carries
   * the open CORS headers (the control API's answers do not). `undefined` where there is no one to answer: a client
   * that hung up mid-body, or a connection refused when it connected.
   */
  type Answered = { answer: SurfaceResponse; mount?: Mount; close?: boolean; logged: boolean; cors?: false };
  async function answer(request: IncomingMessage, target: Target): Promise<Answered | undefined> {
    const { path } = target;
    const method = request.method ?? "GET";
    const mount = route(path);
    if (!mount && (path === controlPath || path.startsWith(`${controlPath}/`))) return answerControl(request, target);
    const cors = preflight(method, request.headers);
    if (cors) {
      request.resume();
      return { answer: cors, logged: false };
    }
    if (!mount) {
      // Outside every surface: the framework's standard 404, as the reference allows for unknown paths.
      request.resume();
      return { answer: text(404, "Not Found"), logged: true };
    }
    const holder = peers.holderOf(request.socket);
    if (!holder) return undefined;
    const asked = new Asked(method, mount.basePath, path.slice(mount.basePath.length), request.headers, target);
    const upload = await readUpload(request, { limit: mount.surface.maxBodyBytes, room, holder, stallMs: bodyStallMs });
    if (upload.kind === "gone") return undefined;
    if (upload.kind !== "body") {
      const { surface } = mount;
      return { ...unkept(upload, () => surface.tooLarge(asked), (message) => surface.busy(message, busyRetryAfterSeconds)), mount, logged: true };
    }
    try {
      asked.body = upload.body;
      return { answer: await mount.surface.handle(asked), mount, logged: true };
    } finally {
      upload.release();
    }
  }

  /** A call to the control API: refused before its body is read (the connection closed after), or answered. */
  async function answerControl(request: IncomingMessage, target: Target): Promise<Answered | undefined> {
    const head = { method: request.method ?? "GET", basePath: controlPath, path: target.path.slice(controlPath.length), query: target.query, headers: request.headers };
    const refused = control.refuse(head);
    if (refused) return { answer: refused, close: true, logged: false, cors: false };
    const holder = peers.holderOf(request.socket);
    if (!holder) return undefined;
    const upload = await readUpload(request, { limit: controlBodyBytes, room, holder, stallMs: bodyStallMs });
    if (upload.kind === "gone") return undefined;
    if (upload.kind !== "body") {
      const busy = (message: string) => text(503, message, { "Retry-After": String(busyRetryAfterSeconds) });
      return { ...unkept(upload, () => text(413, "The control API takes small JSON bodies."), busy), logged: false, cors: false };
    }
    try {
      return { answer: await control.answer({ ...head, body: upload.body }), logged: false, cors: false };
    } finally {
      upload.release();
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const target = new Target(request.url ?? "/");
    const result = await answer(request, target);
    if (!result) return;
    send(response, result.answer, result.close, result.cors);
    if (result.close) response.once("finish", () => request.destroy());
    if (!result.logged) return;
    const charged = result.answer.headers["X-Scraper-Credits-Charged"];
    log.add({
      at: clock.now(),
      surface: result.mount?.name ?? null,
      operation: result.answer.record?.operation ?? null,
      method: request.method ?? "GET",
      path: target.path,
      status: result.answer.status,
      creditsCharged: charged === undefined ? null : Number(charged),
      requestId: result.answer.record?.requestId ?? null,
    });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // Surfaces answer their own errors; this is the last resort for a broken connection or a bug, and says so.
      console.error("content-scraper-mock: request failed:", error);
      if (!response.headersSent) send(response, text(500, "The sandbox failed to answer this request; see its log."), true);
      else response.destroy();
    });
  });
  // Idle connections are kept for a minute: a client reuses them until a second before the hint (undici), so a busy
  // client no longer sends on a socket the sandbox closed a moment before (a reset), as it did at 5 s under load.
  server.keepAliveTimeout = 60_000;
  server.maxConnections = maxConnections;
  server.on("connection", (socket: Socket) => {
    if (!peers.admit(socket)) socket.end(crowded, () => socket.destroy());
  });
  server.headersTimeout = 65_000;

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const { address, port: bound } = server.address() as AddressInfo;
      const reach = reachOf(address, bound);
      control = options.control({ ...reach, port: bound });
      resolve({
        // Listening on every interface: the loopback origin first, which a client on this machine can connect to.
        url: reach.origins[0] ?? `http://${address}:${bound}`,
        origins: reach.origins,
        beyondLoopback: reach.beyondLoopback,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            server.closeAllConnections();
          }),
      });
    });
  });
}
