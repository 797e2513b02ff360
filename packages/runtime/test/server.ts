import type { ServerResponse } from "node:http";
import type { Received } from "@content-scraper/test-server";

export { hostile, startScriptedServer as startServer } from "@content-scraper/test-server";

export const answer =
  (status: number, body = "", headers: Record<string, string> = {}) =>
  (_request: Received, response: ServerResponse) => {
    response.writeHead(status, headers).end(body);
  };
