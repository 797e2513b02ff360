import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Surface, type SurfaceResponse, text } from "./http.js";

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
  close(): Promise<void>;
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
  const headers = { ...answer.headers, "Content-Length": String(Buffer.byteLength(answer.body)) };
  response.writeHead(answer.status, close ? { ...headers, Connection: "close" } : headers);
  response.end(answer.body);
}

/** Longest prefix first, so `/api/v1/scrape/` wins over a later `/api/v1/` surface. */
function router(mounts: readonly Mount[]): (path: string) => Mount | undefined {
  const ordered = [...mounts].sort((a, b) => (b.basePath + b.namespace).length - (a.basePath + a.namespace).length);
  return (path) => ordered.find((mount) => path.startsWith(mount.basePath + mount.namespace));
}

/** One HTTP server for the shared host: each request goes to the surface mounted at its path. */
export function startGateway(mounts: readonly Mount[], port: number, host: string): Promise<Gateway> {
  const route = router(mounts);

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://gateway");
    const path = url.pathname;
    const mount = route(path);
    if (!mount) {
      // Outside every surface: the framework's standard 404, as the reference allows for unknown paths.
      request.resume();
      send(response, text(404, "Not Found"));
      return;
    }
    const { surface } = mount;
    const head = {
      method: request.method ?? "GET",
      basePath: mount.basePath,
      path: path.slice(mount.basePath.length),
      query: url.searchParams,
      headers: request.headers,
    };
    const { body, tooLarge, abandon, gone } = await readBody(request, surface.maxBodyBytes);
    if (gone) return;
    if (tooLarge) {
      send(response, surface.tooLarge(head), abandon);
      if (abandon) response.once("finish", () => request.destroy());
      return;
    }
    send(response, await surface.handle({ ...head, body }));
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // Surfaces answer their own errors; this is the last resort for a broken connection or a bug, and says so.
      console.error("content-scraper-mock: request failed:", error);
      if (!response.headersSent) send(response, text(500, "The sandbox failed to answer this request; see its log."), true);
      else response.destroy();
    });
  });
  server.keepAliveTimeout = 5000;

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
