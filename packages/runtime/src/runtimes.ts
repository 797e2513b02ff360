// What differs between the runtimes the SDK runs on, and nowhere else: whether this is a browser, and how a body's bytes
// can be counted as they come off the connection. Every other module reads fetch, streams and timers as WHATWG defines them.

interface Scope {
  window?: { document?: unknown };
  importScripts?: unknown;
  Deno?: unknown;
  Bun?: unknown;
  process?: { versions?: { node?: unknown } };
  navigator?: { userAgent?: unknown };
}

const scope = () => globalThis as Scope;

/** Whether a server runtime's global is here: Node, Deno, Bun or workerd (a Cloudflare Worker). */
function serverRuntime(): boolean {
  const { Deno, Bun, process, navigator } = scope();
  return Deno !== undefined || Bun !== undefined || typeof process?.versions?.node === "string" || navigator?.userAgent === "Cloudflare-Workers";
}

/**
 * Whether this looks like a browser: a page (a `window` with a `document`), or a browser's worker scope (dedicated,
 * shared or service: `importScripts`, and none of the server runtimes' globals), where a key would be readable by
 * every visitor just the same.
 */
export function isBrowser(): boolean {
  const { window, importScripts } = scope();
  return (window !== undefined && window.document !== undefined) || (typeof importScripts === "function" && !serverRuntime());
}

/**
 * Refuses to build a client that holds a secret (`what`: "your scraper key") in a browser, page or worker, unless the
 * caller set `dangerouslyAllowBrowser`: every visitor could read it.
 */
export function checkBackendOnly(client: string, what: string, allowed: boolean | undefined, fail: (field: string, message: string) => Error): void {
  if (!isBrowser() || allowed === true) return;
  throw fail(
    "dangerouslyAllowBrowser",
    `The ${client} runs on a backend only: in a browser every visitor could read ${what}. Call the API from your server; pass dangerouslyAllowBrowser: true only if you accept that risk.`,
  );
}

/**
 * How a body's bytes on the wire can be counted, which only the runtime's own fetch can tell:
 * - `raw`: Deno, Bun and workerd hand over the bytes undecoded when asked (`init` and `headers`: Bun's documented
 *   `decompress: false`, workerd's documented `encodeResponseBody: "manual"`, each asking for the codings `readBody`
 *   decodes; Deno decodes nothing once the request asks for `identity`), and `readBody` counts and decodes them itself;
 * - `decoded`: Node's fetch (undici), which decodes a body before a reader sees a byte and offers no public way to
 *   count what came off the connection; a browser, which also forbids `Accept-Encoding`; or a `fetch` of the
 *   caller's. Only the decoded bytes are counted, and the deadline bounds the rest.
 */
export type WireAccess =
  | { kind: "raw"; init: Readonly<Record<string, unknown>>; headers: Readonly<Record<string, string>> }
  | { kind: "decoded" };

const decoded: WireAccess = { kind: "decoded" };
const bun: WireAccess = { kind: "raw", init: { decompress: false }, headers: { "accept-encoding": "gzip, deflate" } };
const deno: WireAccess = { kind: "raw", init: {}, headers: { "accept-encoding": "identity" } };
const workerd: WireAccess = { kind: "raw", init: { encodeResponseBody: "manual" }, headers: { "accept-encoding": "gzip, deflate" } };

/** The `WireAccess` of `fetchImpl` on this runtime. */
export function wireAccess(fetchImpl: typeof fetch): WireAccess {
  if (fetchImpl !== globalThis.fetch) return decoded;
  const { Deno, Bun, navigator } = scope();
  if (Bun !== undefined) return bun;
  if (Deno !== undefined) return deno;
  if (navigator?.userAgent === "Cloudflare-Workers") return workerd;
  return decoded;
}
