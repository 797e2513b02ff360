import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { type Handler, hostile, startScriptedServer } from "@content-scraper/test-server";
import { subjects } from "./subjects.js";

/** What one call of a client cost in memory, measured in a process of its own. */
export interface Measured {
  /** Peak RSS over the child's life minus its RSS before the call: an upper bound of the call's growth. */
  growthBytes: number;
  /** The error the call ended with (its class name and message), if any. */
  error: { name: string; message: string } | undefined;
}

const measure = fileURLToPath(new URL("./measure.js", import.meta.url));

/**
 * Runs one call of `subjects[index]` in a child Node process against a loopback server of this process that answers it
 * with `handler` (after one warm-up success), and reports the child's peak RSS growth. Without `maxResponseBytes` the
 * client keeps its default.
 */
export async function peakGrowth(index: number, handler: Handler, maxResponseBytes?: number, callTimeoutMs: number = timeoutMs.tooLarge): Promise<Measured> {
  const subject = subjects[index];
  if (!subject) throw new Error(`no subject ${index}`);
  const server = await startScriptedServer();
  server.script(hostile.raw(200, JSON.stringify(subject.success)), handler);
  try {
    const child = spawn(process.execPath, [measure, String(index), server.origin, String(maxResponseBytes ?? "default"), String(callTimeoutMs)], { stdio: ["ignore", "pipe", "pipe"] });
    const output: Buffer[] = [];
    const errors: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => errors.push(chunk));
    const [code] = await once(child, "exit");
    if (code !== 0) throw new Error(`the child exited with ${code}: ${Buffer.concat(errors).toString()}`);
    const { before, peak, error } = JSON.parse(Buffer.concat(output).toString()) as { before: number; peak: number; error: Measured["error"] };
    return { growthBytes: peak - before, error };
  } finally {
    await server.close();
  }
}

/** The documented bound of a call's peak RSS growth while reading a hostile body: 2 × `maxResponseBytes` + 100 MB. */
export const allowedGrowth = (maxResponseBytes: number) => 2 * maxResponseBytes + 100 * 1e6;

/**
 * The bodies whose memory the suite and the bench measure, and the error each call must end with: the too-large error
 * where the bytes can be counted; the timeout for a compressed body that decodes to nothing, since Node's fetch decodes
 * before any count (its case runs with a short timeout, `timeoutMs`).
 */
export const heavyBodies: ReadonlyArray<readonly [string, Handler, "tooLarge" | "timeout"]> = [
  ["an endless body", hostile.endless(), "tooLarge"],
  ["a 1 GiB gzip bomb", hostile.bomb("gzip", 1024 ** 3), "tooLarge"],
  ["a 1 GiB brotli bomb", hostile.bomb("br", 1024 ** 3), "tooLarge"],
  ["an endless gzip body that decodes to nothing", hostile.inflatesToNothing(), "timeout"],
];

/** The timeout of a case that only the timeout ends: long enough for the body to pour in, short for a test. */
export const timeoutMs = { tooLarge: 120_000, timeout: 3_000 } as const;
