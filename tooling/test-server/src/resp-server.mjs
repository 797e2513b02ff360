// A fake Redis on a free loopback port that answers every script (EVALSHA, EVAL) with a reply of the test's choosing:
// what a broken proxy, a misconfigured port or a hostile server would send. It speaks just enough RESP for ioredis to
// connect (INFO, PING, CLIENT, SELECT, QUIT); a test scripts the reply with `answer`, as raw RESP
// (`"$-1\r\n"` nil, `"+OK\r\n"`, `":-5\r\n"`, `"*1\r\n:0\r\n"`, `"-ERR boom\r\n"`).
import { once } from "node:events";
import { createServer } from "node:net";

/** RESP for the usual garbage, by name. */
export const replies = {
  nil: "$-1\r\n",
  ok: "+OK\r\n",
  negative: ":-5\r\n",
  string: "$3\r\nabc\r\n",
  numericString: "$1\r\n0\r\n",
  array: "*1\r\n:0\r\n",
  emptyArray: "*0\r\n",
  error: "-ERR not a real redis\r\n",
};

/**
 * Splits the commands out of what a client sent (RESP arrays of bulk strings), keeping what is not complete yet.
 * @param {string} buffer
 * @returns {{ commands: string[][], rest: string }}
 */
function parse(buffer) {
  const commands = [];
  let at = 0;
  for (;;) {
    const start = at;
    if (buffer[at] !== "*") return { commands, rest: buffer.slice(start) };
    const countEnd = buffer.indexOf("\r\n", at);
    if (countEnd < 0) return { commands, rest: buffer.slice(start) };
    const count = Number(buffer.slice(at + 1, countEnd));
    at = countEnd + 2;
    const parts = [];
    for (let i = 0; i < count; i++) {
      const lengthEnd = buffer.indexOf("\r\n", at);
      if (lengthEnd < 0) return { commands, rest: buffer.slice(start) };
      const length = Number(buffer.slice(at + 1, lengthEnd));
      if (buffer.length < lengthEnd + 2 + length + 2) return { commands, rest: buffer.slice(start) };
      parts.push(buffer.slice(lengthEnd + 2, lengthEnd + 2 + length));
      at = lengthEnd + 2 + length + 2;
    }
    commands.push(parts);
  }
}

/** The fake Redis: `url`, the scripts it was asked to run (`scripts`), `answer(resp)` and `stop()`. */
export async function startRespServer(reply = replies.nil) {
  let scripted = reply;
  let scripts = 0;
  const sockets = new Set();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let pending = "";
    socket.on("data", (chunk) => {
      const { commands, rest } = parse(pending + chunk.toString("latin1"));
      pending = rest;
      for (const [name = ""] of commands) {
        const command = name.toUpperCase();
        if (command === "INFO") socket.write("$31\r\n# Server\r\nredis_version:7.0.0\r\n\r\n");
        else if (command === "EVALSHA" || command === "EVAL") {
          scripts++;
          socket.write(scripted);
        } else socket.write("+OK\r\n");
      }
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    url: `redis://127.0.0.1:${port}`,
    /** How many scripts the clients asked it to run. */
    get scripts() {
      return scripts;
    },
    /** @param {string} resp */
    answer(resp) {
      scripted = resp;
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, "close");
    },
  };
}
