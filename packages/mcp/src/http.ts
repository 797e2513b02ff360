import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isLoopback } from "@content-scraper/runtime";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { McpInputError } from "./errors.js";
import type { ScraperMcp } from "./server.js";

/** Where `serveHttp` listens: loopback only. */
export interface ServeHttpOptions {
  /** `127.0.0.1` (the default), `localhost` or `::1`: the server holds a key and answers no one else. */
  host?: string | undefined;
  /** Default 0: a free port. */
  port?: number | undefined;
}

/** A running Streamable HTTP server: its endpoint, and `close()`. */
export interface HttpServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  close(): Promise<void>;
}

/** The host of a URL or `Host` header, when it names this machine. */
const loopbackHost = (origin: string | undefined) => {
  if (origin === undefined) return false;
  try {
    return isLoopback(new URL(origin));
  } catch {
    return false;
  }
};

/**
 * Whether a request comes from this machine's own pages and tools: its `Host` (and `Origin`, where a browser sends
 * one) name loopback. Anything else is a DNS-rebinding page, whose requests reach 127.0.0.1 under another name.
 */
function fromLoopback(request: IncomingMessage): boolean {
  const origin = request.headers.origin;
  return loopbackHost(`http://${request.headers.host ?? ""}`) && (origin === undefined || loopbackHost(origin));
}

function refuse(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

/**
 * Serves `mcp` over Streamable HTTP at `/mcp` on loopback: one session (and one MCP server, with its own allowance
 * inside the server's) per `Mcp-Session-Id`, ended by `DELETE` or `close()`. Requests whose `Host` or `Origin` is not
 * loopback are refused (403), as are hosts other than loopback to listen on.
 */
export async function serveHttp(mcp: ScraperMcp, options: ServeHttpOptions = {}): Promise<HttpServer> {
  const host = options.host ?? "127.0.0.1";
  if (!loopbackHost(`http://${host.includes(":") ? `[${host}]` : host}`)) {
    throw new McpInputError("host", "the HTTP server listens on loopback only (127.0.0.1, localhost or ::1): it holds a key and answers no one else.");
  }
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) refuse(response, 500, "Internal error");
      else response.end();
    });
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!fromLoopback(request)) return refuse(response, 403, "Forbidden: Host and Origin must be this machine.");
    if (new URL(request.url ?? "/", "http://localhost").pathname !== "/mcp") return refuse(response, 404, "Not found: the MCP endpoint is /mcp.");
    const id = request.headers["mcp-session-id"];
    const known = typeof id === "string" ? sessions.get(id) : undefined;
    if (known) return known.handleRequest(request, response);
    if (id !== undefined) return refuse(response, 404, "Session not found: initialize a new one.");
    // No session yet: this request must initialize one; the transport refuses anything else, and is then dropped.
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
    });
    transport.onclose = () => void (transport.sessionId && sessions.delete(transport.sessionId));
    const server = mcp.session();
    await server.connect(transport);
    await transport.handleRequest(request, response);
    if (transport.sessionId === undefined) await server.close();
  }
  // Node closes an idle keep-alive connection after 5 s, and a client may send on it at that moment (its own timer,
  // late on a busy machine, says it is still open): the call fails with "other side closed". An agent's client idles
  // between calls, so idle connections live a minute here.
  http.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}/mcp`,
    async close() {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
