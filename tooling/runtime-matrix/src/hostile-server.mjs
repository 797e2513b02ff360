// The hostile server of the runtime matrix, on a free loopback port: `/stall/…` sends its headers and then nothing,
// `/nothing/…` a gzip body that never ends and decodes to nothing (empty stored blocks). It answers CORS, preflights
// included, so that a page and a worker on another origin can reach it, and counts what it wrote.
import { once } from "node:events";
import { createServer } from "node:http";

const gzipHeader = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
const emptyBlocks = Buffer.alloc(64 * 1024 * 5);
for (let at = 0; at < emptyBlocks.length; at += 5) emptyBlocks.set([0, 0, 0, 0xff, 0xff], at);

export async function startHostileServer() {
  const open = new Set();
  const server = createServer((request, response) => {
    open.add(response);
    response.on("close", () => open.delete(response));
    const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "*", "access-control-allow-methods": "*" };
    if (request.method === "OPTIONS") return response.writeHead(204, cors).end();
    if (request.url?.startsWith("/stall/")) {
      response.writeHead(200, { ...cors, "content-type": "application/json" });
      response.write("{");
      return;
    }
    response.writeHead(200, { ...cors, "content-type": "application/json", "content-encoding": "gzip" });
    response.write(gzipHeader);
    const pump = () => {
      while (!response.destroyed) if (!response.write(emptyBlocks)) return void response.once("drain", pump);
    };
    pump();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    origin: `http://127.0.0.1:${port}`,
    /** Answers still open: a timed-out request's connection must be released. */
    get open() {
      return open.size;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
