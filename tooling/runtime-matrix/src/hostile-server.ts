// The hostile server of the runtime matrix: the test server's misbehaving answers, by path, with CORS (preflights
// included) so that a page and a worker on another origin reach it too. `/stall/…` and the OAuth discovery
// documents (`/.well-known/…`) send their headers and then nothing,
// `/nothing/…` a gzip body that never ends and decodes to nothing (4 MiB of it, then nothing more: far past the case's
// limit, and what a client can count stays within it however slowly a loaded machine runs the client).
import { hostile, startScriptedServer } from "@content-scraper/test-server";

const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "*", "access-control-allow-methods": "*" };
const nothing = hostile.inflatesToNothing(4 * 1024 * 1024);

export async function startHostileServer() {
  const open = new Set<unknown>();
  const server = await startScriptedServer();
  server.script((request, response) => {
    open.add(response);
    response.on("close", () => open.delete(response));
    for (const [name, value] of Object.entries(cors)) response.setHeader(name, value);
    if (request.method === "OPTIONS") return void response.writeHead(204).end();
    if (!request.path.startsWith("/stall/") && !request.path.startsWith("/.well-known/")) return nothing(request, response);
    response.writeHead(200, { "content-type": "application/json" }).write("{");
  });
  return {
    origin: server.origin,
    /** Answers still open: every timed-out or aborted request's connection must have been released. */
    get open() {
      return open.size;
    },
    close: server.close,
  };
}
