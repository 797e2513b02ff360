import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
  at: number;
}

/** A loopback server on port 0 that answers with the scripted handlers in order (the last one repeats). */
export async function startServer() {
  const requests: Received[] = [];
  let handlers: Array<(request: Received, response: ServerResponse) => void> = [];
  const server = createServer(async (incoming, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const request = { method: incoming.method ?? "", path: incoming.url ?? "", headers: incoming.headers, body: Buffer.concat(chunks).toString(), at: performance.now() };
    requests.push(request);
    const handler = handlers.length > 1 ? handlers.shift() : handlers[0];
    if (handler) handler(request, response);
    else response.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    script(...next: typeof handlers) {
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

export const answer =
  (status: number, body = "", headers: Record<string, string> = {}) =>
  (_request: Received, response: ServerResponse) => {
    response.writeHead(status, headers).end(body);
  };
