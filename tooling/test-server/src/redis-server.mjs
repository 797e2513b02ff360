// A redis-server of a test's own, on a free loopback port, without persistence: shared by every package's tests and
// benches (plain JavaScript, so that a bench runs it under node).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";

/** A port nobody listens on right now (the OS's pick for port 0). */
async function freePort() {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = /** @type {import("node:net").AddressInfo} */ (probe.address());
  probe.close();
  await once(probe, "close");
  return port;
}

/**
 * A real `redis-server` (Debian's) on a free loopback port, without persistence: the caller's own, stopped by `stop()`.
 * `kill()` ends it as a crash would, `start()` brings it back (empty) on the same port, `freeze()`/`thaw()` make it
 * stop answering and answer again with its data intact.
 * @param {string[]} [extraArgs]
 */
export async function startRedis(extraArgs = []) {
  const port = await freePort();
  /** @type {import("node:child_process").ChildProcess | undefined} */
  let child;
  const server = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", ...extraArgs];
      const started = spawn("/usr/bin/redis-server", args, { stdio: ["ignore", "pipe", "inherit"] });
      child = started;
      let output = "";
      await new Promise((resolve, reject) => {
        started.stdout.on("data", (chunk) => {
          output += String(chunk);
          if (output.includes("Ready to accept connections")) resolve(undefined);
        });
        started.on("exit", () => reject(new Error(`redis-server did not start:\n${output}`)));
      });
    },
    async kill() {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGKILL");
      await exited;
    },
    freeze: () => child?.kill("SIGSTOP"),
    thaw: () => child?.kill("SIGCONT"),
    async stop() {
      server.thaw();
      await server.kill();
    },
  };
  await server.start();
  return server;
}
