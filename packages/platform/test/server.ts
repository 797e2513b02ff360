import { type Handler, startScriptedServer } from "@content-scraper/test-server";

export type { Handler, Received } from "@content-scraper/test-server";

/** The scripted loopback server, standing for the OAuth API (or, with `/api/v1`, the key-based one). */
export const startServer = (basePath = "/api/oauth/v1") => startScriptedServer(basePath);
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
