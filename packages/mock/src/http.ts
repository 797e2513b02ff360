import type { IncomingHttpHeaders } from "node:http";
import { requestId } from "./request-id.js";

// What the gateway hands a surface and what the surface answers: plain data, so a surface can be tested without sockets.

export interface SurfaceRequest {
  method: string;
  /**
   * The base path the request came through: the surface's own (`/api/oauth/v1`), or the server of operations served
   * elsewhere (`""`, the host's root, for the discovery document).
   */
  basePath: string;
  /** The path below the surface's base path (`/scrape/shortvideo/profile`), without the query. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The query string's parameters (the gateway always sets them; surfaces tested without sockets may omit them). */
  query?: URLSearchParams;
  /** The raw body, or `undefined` when the request carried none. */
  body: Buffer | undefined;
}

/** What a surface that Prism serves from its description is started with. */
export interface PrismSurfaceOptions {
  /** The bundled description. */
  description: string;
  seed: string;
  dynamic: boolean;
  /** Overrides the surface's stated rate limit. */
  requestsPerMinute: number | undefined;
}

export interface SurfaceResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Surface {
  /** The largest body the surface reads; the gateway answers a larger one with `tooLarge` without buffering it. */
  readonly maxBodyBytes: number;
  tooLarge(request: Omit<SurfaceRequest, "body">): SurfaceResponse;
  /** Answers every request, errors included; it does not throw. */
  handle(request: SurfaceRequest): Promise<SurfaceResponse>;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): SurfaceResponse {
  return { status, headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) };
}

export function text(status: number, body: string, headers: Record<string, string> = {}): SurfaceResponse {
  return { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...headers }, body };
}

/**
 * A surface's `handle`: `answer` with a fresh request id, and for a bug in the sandbox a log line naming the request and
 * `internal`'s answer in the surface's own envelope, so a client never sees a dropped connection.
 */
export function answerAll(
  answer: (request: SurfaceRequest, id: string) => Promise<SurfaceResponse>,
  internal: (id: string) => SurfaceResponse,
): Surface["handle"] {
  return async (request) => {
    const id = requestId();
    try {
      return await answer(request, id);
    } catch (error) {
      console.error(`content-scraper-mock: ${request.method} ${request.path} (${id}) failed:`, error);
      return internal(id);
    }
  };
}
