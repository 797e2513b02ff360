import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
  at: number;
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

/**
 * A real HTTP server on loopback, port 0, that answers each request with the next scripted handler (the last one
 * repeats) and records what it received. Tests drive the client's rules through it.
 */
export async function startFaultServer() {
  const requests: RecordedRequest[] = [];
  let handlers: Handler[] = [];
  const server = createServer(async (incoming, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const request = {
      method: incoming.method ?? "",
      path: incoming.url ?? "",
      headers: incoming.headers,
      body: Buffer.concat(chunks).toString("utf8"),
      at: performance.now(),
    };
    requests.push(request);
    const handler = handlers.length > 1 ? handlers.shift() : handlers[0];
    if (!handler) {
      response.writeHead(500).end("no handler scripted");
      return;
    }
    await handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    requests,
    /** Scripts the next answers, in order; the last one answers every request after it. */
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

export type FaultServer = Awaited<ReturnType<typeof startFaultServer>>;

export const rateHeaders = { "x-scraper-ratelimit-limit": "120", "x-scraper-ratelimit-remaining": "119", "x-scraper-ratelimit-reset": "1763776380" };

/** A 200 in the service's envelope, with the five X-Scraper headers. */
export function ok(data: unknown, { charged = 1, remaining = 4999, headers = {} as Record<string, string> } = {}): Handler {
  return (_request, response) => {
    response.writeHead(200, {
      "content-type": "application/json",
      "x-scraper-credits-charged": String(charged),
      "x-scraper-credits-remaining": String(remaining),
      ...rateHeaders,
      ...headers,
    });
    response.end(JSON.stringify({ data, request_id: "req_ok", upstream_calls: 1, meta: { credits_charged: charged, credits_remaining: remaining } }));
  };
}

/** An error in the service's envelope. */
export function fail(status: number, error: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Handler {
  return (_request, response) => {
    response.writeHead(status, { "content-type": "application/json", "x-scraper-credits-charged": "0", ...headers });
    response.end(JSON.stringify({ error, message: `${error} happened`, request_id: `req_${error.toLowerCase()}`, ...extra }));
  };
}

/** The gateway's bare text/plain answer. */
export function plain(status: number, text: string): Handler {
  return (_request, response) => {
    response.writeHead(status, { "content-type": "text/plain" });
    response.end(text);
  };
}
