import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// Imported as TypeScript by the tests that use it (vitest and tsc read it from source; nothing to build).

export interface Received {
  method: string;
  /** The path, without the query. */
  path: string;
  url: URL;
  headers: IncomingMessage["headers"];
  body: string;
  /** `performance.now()` when the whole body had arrived. */
  at: number;
}

export type Handler = (request: Received, response: ServerResponse) => void | Promise<void>;

/**
 * A real HTTP server on loopback, port 0, answering each request with the next scripted handler (the last one repeats)
 * and recording what it received. `baseUrl` is its origin plus `basePath`.
 */
export async function startScriptedServer(basePath = "") {
  const requests: Received[] = [];
  let handlers: Handler[] = [];
  const server = createServer(async (incoming, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const url = new URL(incoming.url ?? "/", "http://127.0.0.1");
    const request = { method: incoming.method ?? "", path: url.pathname, url, headers: incoming.headers, body: Buffer.concat(chunks).toString("utf8"), at: performance.now() };
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

export type ScriptedServer = Awaited<ReturnType<typeof startScriptedServer>>;

/** Answers that misbehave on purpose: redirects, silence, endless and compressed bodies, arbitrary bodies. */
export * as hostile from "./hostile.js";

/** The forms in which a server echoes a credential, and the check that none of them leaked. */
export { type Echo, echoedForms, echoes, leakedForms } from "./echoes.js";
