import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  method: string;
  path: string;
  url: URL;
  headers: IncomingMessage["headers"];
  body: string;
  at: number;
}

export type Handler = (request: Received, response: ServerResponse) => void | Promise<void>;

/**
 * A real HTTP server on loopback, port 0, answering each request with the next scripted handler (the last one repeats)
 * and recording what it received.
 */
export async function startServer(basePath = "/api/oauth/v1") {
  const requests: Received[] = [];
  let handlers: Handler[] = [];
  const server = createServer(async (incoming, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const url = new URL(incoming.url ?? "/", "http://127.0.0.1");
    const request = { method: incoming.method ?? "", path: url.pathname, url, headers: incoming.headers, body: Buffer.concat(chunks).toString(), at: performance.now() };
    requests.push(request);
    const handler = handlers.length > 1 ? handlers.shift() : handlers[0];
    if (handler) await handler(request, response);
    else response.writeHead(500).end("no handler scripted");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: `${origin}${basePath}`,
    requests,
    script(...next: Handler[]) {
      handlers = next;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type TestServer = Awaited<ReturnType<typeof startServer>>;

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_request, response) => {
    response.writeHead(status, { "content-type": "application/json", ...headers }).end(body === undefined ? "" : JSON.stringify(body));
  };
}

/** The OAuth API's resource error envelope. */
export function apiError(status: number, code: string, headers: Record<string, string> = {}, meta?: Record<string, unknown>): Handler {
  return json(status, { error: { code, message: `${code} happened`, requestId: `req_${code}`, ...(meta ? { meta } : {}) } }, headers);
}
