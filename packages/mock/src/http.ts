import type { IncomingHttpHeaders } from "node:http";
import type { SandboxClock } from "./control/clock.js";
import type { Faults } from "./control/faults.js";
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

/** What the control plane shares with every surface: the one clock, and the faults injected for them. */
export interface SandboxServices {
  clock: SandboxClock;
  faults: Faults;
}

/** What a surface that Prism serves from its description is started with. */
export interface PrismSurfaceOptions {
  /** The bundled description. */
  description: string;
  seed: string;
  dynamic: boolean;
  /** Overrides the surface's stated rate limit. */
  requestsPerMinute: number | undefined;
  sandbox: SandboxServices;
}

export interface SurfaceResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** What the request log keeps of the answer (not sent). */
  record?: AnswerRecord;
}

/** What the request log keeps of an answer besides its status. */
export interface AnswerRecord {
  /** The operationId the request named. */
  operation?: string | undefined;
  /** The request id the answer carries. */
  requestId?: string | undefined;
}

export interface Surface {
  /** The largest body the surface reads; the gateway answers a larger one with `tooLarge` without buffering it. */
  readonly maxBodyBytes: number;
  tooLarge(request: Omit<SurfaceRequest, "body">): SurfaceResponse;
  /**
   * The answer to a request the sandbox cannot take now, for a limit of its own that clears with time (bodies being
   * read fill their room): the surface's own answer for "retry later", with `message` and `Retry-After`.
   */
  busy(message: string, retryAfterSeconds: number): SurfaceResponse;
  /** Answers every request, errors included; it does not throw. */
  handle(request: SurfaceRequest): Promise<SurfaceResponse>;
  /** Forgets what the surface keeps about one credential (a key or a token), or about everyone. */
  reset(credential?: string): void;
  /** The statuses an operation documents (`200`, `4XX`, `default`), or `undefined` where the surface has no such operation. */
  statuses(operationId: string): readonly string[] | undefined;
  /** Sets a key's credit balance, where the surface keeps balances; answers what is wrong with the key, if anything. */
  setBalance?(key: string, credits: number): string | undefined;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): SurfaceResponse {
  return { status, headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) };
}

export function text(status: number, body: string, headers: Record<string, string> = {}): SurfaceResponse {
  return { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...headers }, body };
}

/**
 * A surface's `handle`: `answer` with a fresh request id (on the sandbox clock) and a record the surface fills in with
 * the operation it routed to; for a bug in the sandbox, a log line naming the request and `internal`'s answer in the
 * surface's own envelope, so a client never sees a dropped connection.
 */
export function answerAll(
  clock: SandboxClock,
  answer: (request: SurfaceRequest, id: string, record: AnswerRecord) => Promise<SurfaceResponse>,
  internal: (id: string) => SurfaceResponse,
): Surface["handle"] {
  return async (request) => {
    const id = requestId(clock.now());
    const record: AnswerRecord = {};
    let response: SurfaceResponse;
    try {
      response = await answer(request, id, record);
    } catch (error) {
      console.error(`content-scraper-mock: ${request.method} ${request.path} (${id}) failed:`, error);
      response = internal(id);
    }
    // The id is logged where the answer carries it, as a partner would quote it.
    const { status, headers, body } = response;
    return { status, headers, body, record: { operation: record.operation, requestId: body.includes(id) ? id : undefined } };
  };
}
