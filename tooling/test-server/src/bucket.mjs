// The token-bucket server the benches talk to (`bucket-server.mjs`), started in a process of its own so that it does
// not share the measured client's CPU. Plain JavaScript: benches run under node without a TypeScript step.
import { spawn } from "node:child_process";
import { once } from "node:events";

/**
 * Starts the server: with `rpm` it enforces the service's token bucket (`burstSeconds` of allowance, a minute's by
 * default) and answers 429 with Retry-After when empty; 0 enforces nothing. `latencyMs` (`[min, max]`) delays each answer
 * after its admission. `stop()` answers how many 429s it sent; `stopped()` also the span from the first admission to
 * the last, in milliseconds.
 */
export async function startBucketServer(rpm = 0, burstSeconds = 60, latencyMs = [0, 0]) {
  const script = new URL("./bucket-server.mjs", import.meta.url).pathname;
  const child = spawn(process.execPath, [script, String(rpm), String(burstSeconds), latencyMs.join("-")], { stdio: ["ignore", "pipe", "inherit"] });
  const [port] = await once(child.stdout, "data");
  const output = [];
  child.stdout.on("data", (chunk) => output.push(String(chunk)));
  return {
    baseUrl: `http://127.0.0.1:${String(port).trim()}/api/v1`,
    async stop() {
      return (await this.stopped()).rejected;
    },
    async stopped() {
      child.kill("SIGTERM");
      await once(child, "exit");
      const text = output.join("");
      return { rejected: Number(/429s=(\d+)/.exec(text)?.[1] ?? Number.NaN), spanMs: Number(/span=([\d.]+)/.exec(text)?.[1] ?? Number.NaN) };
    },
  };
}

/**
 * A rate-limit store whose buckets hold the server's burst, not the description's (`burstOf` maps one to the other):
 * the client reads a minute's burst from the description, while a bench's server may keep a shorter one.
 */
export function withBurst(store, burstOf) {
  const limit = (shape) => ({ requestsPerMinute: shape.requestsPerMinute, burstSeconds: burstOf(shape.burstSeconds) });
  return {
    take: (key, shape) => store.take(key, limit(shape)),
    correct: (key, shape, remaining, ageMs) => store.correct(key, limit(shape), remaining, ageMs),
    pause: (key, shape, ms) => store.pause(key, limit(shape), ms),
  };
}
