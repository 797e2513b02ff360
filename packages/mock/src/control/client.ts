import type { PendingFault } from "./faults.js";
import { checkControlToken } from "./guard.js";
import type { LogEntry, LogFilter } from "./log.js";
import { type ClockState, type FaultSpec, type SandboxControl, SandboxControlError } from "./plane.js";
import { controlPath } from "./routes.js";

/** How to reach a sandbox's control API. */
export interface ConnectOptions {
  /** The control token a sandbox listening beyond loopback printed at start (or was given). */
  token?: string | undefined;
}

/**
 * The control functions of a sandbox running elsewhere (another process, `content-scraper-mock` on a port), over its
 * control API: the same as the `startMock()` handle's. `url` is the sandbox's origin (`http://127.0.0.1:4010`).
 */
export function connectSandbox(url: string, options: ConnectOptions = {}): SandboxControl {
  const authorization: Record<string, string> = options.token === undefined ? {} : { authorization: `Bearer ${checkControlToken(options.token)}` };
  let base: URL;
  try {
    base = new URL(controlPath, url);
  } catch {
    throw new SandboxControlError("url", `"${url}" is not a URL: pass the sandbox's origin, such as http://127.0.0.1:4010.`);
  }

  async function call<T>(method: string, path: string, body?: object, query?: Record<string, string | number | undefined>): Promise<T> {
    const target = new URL(`${base.pathname}${path}`, base);
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) target.searchParams.set(name, String(value));
    // A call that writes carries a JSON body, `{}` at least: the control API takes no other.
    const json = method === "GET" ? undefined : JSON.stringify(body ?? {});
    let response: Response;
    try {
      response = await fetch(target, { method, headers: { ...authorization, ...(json === undefined ? {} : { "content-type": "application/json" }) }, body: json });
    } catch (error) {
      throw new Error(`No sandbox answers at ${base.origin}: start one with \`content-scraper-mock\` (${(error as Error).message})`);
    }
    const answer = (await response.json().catch(() => undefined)) as { error?: { message: string; field?: string } } | undefined;
    if (response.ok) return answer as T;
    const message = answer?.error?.message ?? `The control API answered ${response.status}.`;
    if (answer?.error?.field) throw new SandboxControlError(answer.error.field, message);
    throw new Error(message);
  }

  return {
    reset: async (credential) => {
      await call("POST", "/reset", credential === undefined ? {} : { credential });
    },
    advance: (seconds) => call<ClockState>("POST", "/clock/advance", { seconds }),
    clock: () => call<ClockState>("GET", "/clock"),
    setBalance: async (key, credits) => {
      await call("POST", "/balance", { key, credits });
    },
    log: async (filter: LogFilter = {}) => (await call<{ entries: LogEntry[] }>("GET", "/log", undefined, { ...filter })).entries,
    inject: async (fault: FaultSpec) => (await call<{ fault: PendingFault }>("POST", "/faults", fault)).fault,
    faults: async () => (await call<{ faults: PendingFault[] }>("GET", "/faults")).faults,
  };
}
