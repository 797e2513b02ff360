import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { SandboxClock } from "./control/clock.js";
import type { RequestLog } from "./control/log.js";
import { controlPath } from "./control/routes.js";
import { corsHeaders, preflight } from "./cors.js";
import { type Surface, type SurfaceRequest, type SurfaceResponse, text } from "./http.js";

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
  /** The origin the gateway listens on (`http://127.0.0.1:4010`). */
  url: string;
  /** Stops the sandbox: it stops listening and closes every connection. */
  close(): Promise<void>;
}

/** What the gateway serves besides the surfaces: the control API, and the log and clock every answer is recorded with. */
export interface GatewayOptions {
  port: number;
  host: string;
  /** Answers the requests below `controlPath`. */
  control: (request: SurfaceRequest) => Promise<SurfaceResponse>;
  log: RequestLog;
  clock: SandboxClock;
}

// A body this far over a surface's limit is not drained before the 413: the connection is closed after the answer.
const drainLimitBytes = 1024 * 1024;

type Body = { body: Buffer | undefined; tooLarge: boolean; abandon: boolean; gone?: true };

/**
 * Reads a body up to `limit` bytes; beyond it, counts without buffering so the client still gets an answer. A client
 * that hangs up mid-body is `gone`: there is no one to answer.
 */
function readBody(request: IncomingMessage, limit: number): Promise<Body> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > limit + drainLimitBytes) {
        request.pause();
        resolve({ body: undefined, tooLarge: true, abandon: true });
      }
    });
    request.on("end", () => resolve({ body: size === 0 ? undefined : Buffer.concat(chunks), tooLarge: size > limit, abandon: false }));
    request.on("error", () => resolve({ body: undefined, tooLarge: false, abandon: true, gone: true }));
  });
}

function send(response: ServerResponse, answer: SurfaceResponse, close = false): void {
  const headers = { ...answer.headers, ...corsHeaders(answer), "Content-Length": String(Buffer.byteLength(answer.body)) };
  response.writeHead(answer.status, close ? { ...headers, Connection: "close" } : headers);
  response.end(answer.body);
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
  const ordered = [...mounts].sort((a, b) => prefixOf(b).length - prefixOf(a).length);
  return (path) => ordered.find((mount) => path.startsWith(prefixOf(mount)));
}

// The control API's own bodies are small JSON objects.
const controlBodyBytes = 64 * 1024;

/** One HTTP server for the shared host: each request goes to the surface mounted at its path, or to the control API. */
export function startGateway(mounts: readonly Mount[], options: GatewayOptions): Promise<Gateway> {
  const route = router(mounts);
  const { port, host, control, log, clock } = options;

  /**
   * The answer to one request: the surface that gave it (none outside every surface), whether to close the connection
   * after it, and whether the request log keeps it (not preflights, nor the control API's own calls). `undefined` for a
   * client that hung up mid-body: there is no one to answer.
   */
  type Answered = { answer: SurfaceResponse; mount?: Mount; close?: boolean; logged: boolean };
  async function answer(request: IncomingMessage, url: URL): Promise<Answered | undefined> {
    const path = url.pathname;
    const method = request.method ?? "GET";
    const cors = preflight(method, request.headers);
    if (cors) {
      request.resume();
      return { answer: cors, logged: false };
    }
    const mount = route(path);
    const controlled = !mount && (path === controlPath || path.startsWith(`${controlPath}/`));
    if (!mount && !controlled) {
      // Outside every surface: the framework's standard 404, as the reference allows for unknown paths.
      request.resume();
      return { answer: text(404, "Not Found"), logged: true };
    }
    const basePath = mount?.basePath ?? controlPath;
    const head = { method, basePath, path: path.slice(basePath.length), query: url.searchParams, headers: request.headers };
    const { body, tooLarge, abandon, gone } = await readBody(request, mount?.surface.maxBodyBytes ?? controlBodyBytes);
    if (gone) return undefined;
    if (!mount) return { answer: tooLarge ? text(413, "The control API takes small JSON bodies.") : await control({ ...head, body }), close: abandon, logged: false };
    if (tooLarge) return { answer: mount.surface.tooLarge(head), mount, close: abandon, logged: true };
    return { answer: await mount.surface.handle({ ...head, body }), mount, logged: true };
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://gateway");
    const result = await answer(request, url);
    if (!result) return;
    send(response, result.answer, result.close);
    if (result.close) response.once("finish", () => request.destroy());
    if (!result.logged) return;
    const charged = result.answer.headers["X-Scraper-Credits-Charged"];
    log.add({
      time: new Date(clock.now()).toISOString(),
      surface: result.mount?.name ?? null,
      operation: result.answer.record?.operation ?? null,
      method: request.method ?? "GET",
      path: url.pathname,
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
  server.headersTimeout = 65_000;

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const { address, family, port: bound } = server.address() as AddressInfo;
      // Listening on every interface: name the loopback one, which a client can connect to.
      const reachable = address === "0.0.0.0" ? "127.0.0.1" : address === "::" ? "::1" : address;
      const hostname = family === "IPv6" ? `[${reachable}]` : reachable;
      resolve({
        url: `http://${hostname}:${bound}`,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            server.closeAllConnections();
          }),
      });
    });
  });
}
