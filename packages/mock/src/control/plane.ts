import type { Surface } from "../http.js";
import { maxPendingFaults } from "../limits.js";
import type { SandboxClock } from "./clock.js";
import type { Faults, PendingFault } from "./faults.js";
import type { LogEntry, LogFilter, RequestLog } from "./log.js";

// The sandbox's control plane, beside the surfaces: reset, the clock, balances, the request log and faults. The same
// functions are on the `startMock()` handle, behind the control API's HTTP routes, and behind the CLI's commands.

/** The sandbox clock as the control API reports it. */
export interface ClockState {
  /** Sandbox time, ISO 8601. */
  now: string;
  /** How far `advance` has moved it ahead of real time, in seconds. */
  advancedSeconds: number;
}

/** A fault to inject on the next requests of an operation. */
export interface FaultSpec {
  /** The operationId (`shortvideoProfile`, `executePayout`, …). */
  operation: string;
  /** The surface (`scraper`, `platform`, `platformLegacy`), needed only where two surfaces document the operationId. */
  surface?: string | undefined;
  /** A status the operation documents, answered instead of the usual one, in the surface's own envelope. */
  status?: number | undefined;
  /** Seconds of sandbox time to wait before answering. */
  latencySeconds?: number | undefined;
  /** How many of the operation's next requests it applies to; default 1. */
  count?: number | undefined;
}

/** The control plane's functions: in process on the `startMock()` handle, or over HTTP with `connectSandbox(url)`. */
export interface SandboxControl {
  /**
   * Forgets all state (balances, buckets, idempotency keys, clients and tokens, the request log, faults, and the clock's
   * advance), or, given a credential (a key or a token), that credential's own: its balance, bucket and idempotency keys.
   */
  reset(credential?: string): Promise<void>;
  /** Moves the sandbox clock forward: buckets refill, idempotency keys and tokens expire, catalogs grow. */
  advance(seconds: number): Promise<ClockState>;
  /** The sandbox clock. */
  clock(): Promise<ClockState>;
  /** Sets a scraper key's credit balance. */
  setBalance(key: string, credits: number): Promise<void>;
  /** The request log, oldest first: method, path, status, credits charged and request id of every answer. */
  log(filter?: LogFilter): Promise<LogEntry[]>;
  /** Injects a fault (a documented status) or a latency on the next requests of an operation. */
  inject(fault: FaultSpec): Promise<PendingFault>;
  /** The faults still waiting for requests. */
  faults(): Promise<PendingFault[]>;
}

/** A control call the sandbox refuses: `field` names what to fix. */
export class SandboxControlError extends Error {
  override readonly name = "SandboxControlError";
  constructor(
    /** The field of the call that is wrong. */
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/**
 * Whether a fault may answer `status` for an operation: one it documents exactly or by its range (`5XX`), or a server
 * failure (5xx) that its `default` response covers. A `default` is no licence for any 4xx: those stay as documented.
 */
function documents(statuses: readonly string[], status: number): boolean {
  return statuses.includes(String(status)) || statuses.includes(`${String(status)[0]}XX`) || (status >= 500 && statuses.includes("default"));
}

export class ControlPlane implements SandboxControl {
  constructor(
    readonly clockSource: SandboxClock,
    readonly requests: RequestLog,
    readonly pending: Faults,
    /** The surfaces by mount name. */
    readonly surfaces: ReadonlyMap<string, Surface>,
  ) {}

  async reset(credential?: string): Promise<void> {
    if (credential !== undefined && (typeof credential !== "string" || credential === "")) {
      throw new SandboxControlError("credential", "credential must be a non-empty key or token, or absent to reset everything.");
    }
    for (const surface of this.surfaces.values()) surface.reset(credential);
    if (credential !== undefined) return;
    this.requests.clear();
    this.pending.clear();
    this.clockSource.reset();
  }

  async advance(seconds: number): Promise<ClockState> {
    if (!isNumber(seconds) || seconds < 0) throw new SandboxControlError("seconds", "seconds must be a non-negative number: the clock only moves forward.");
    this.clockSource.advance(seconds * 1000);
    return this.clock();
  }

  async clock(): Promise<ClockState> {
    return { now: new Date(this.clockSource.now()).toISOString(), advancedSeconds: this.clockSource.advancedMs / 1000 };
  }

  async setBalance(key: string, credits: number): Promise<void> {
    if (!Number.isSafeInteger(credits) || credits < 0) throw new SandboxControlError("credits", "credits must be a non-negative whole number.");
    const problem = typeof key === "string" ? this.surfaces.get("scraper")?.setBalance?.(key, credits) : "key must be a string.";
    if (problem) throw new SandboxControlError("key", problem);
  }

  async log(filter: LogFilter = {}): Promise<LogEntry[]> {
    const { limit } = filter;
    if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) throw new SandboxControlError("limit", "limit must be a non-negative whole number.");
    return this.requests.read(filter);
  }

  async inject(fault: FaultSpec): Promise<PendingFault> {
    const { operation, status, latencySeconds, count = 1 } = fault ?? ({} as FaultSpec);
    if (typeof operation !== "string" || operation === "") throw new SandboxControlError("operation", "operation must be an operationId.");
    const owners = [...this.surfaces].filter(([name, surface]) => (fault.surface === undefined || fault.surface === name) && surface.statuses(operation));
    if (owners.length === 0) {
      const where = fault.surface === undefined ? "any surface" : `the ${fault.surface} surface`;
      throw new SandboxControlError(fault.surface !== undefined && !this.surfaces.has(fault.surface) ? "surface" : "operation", `${where} documents no operation "${operation}".`);
    }
    if (owners.length > 1) {
      throw new SandboxControlError("surface", `"${operation}" is documented by ${owners.map(([name]) => name).join(" and ")}: name the surface.`);
    }
    const [[surface, owner]] = owners as [[string, Surface]];
    if (status === undefined && latencySeconds === undefined) throw new SandboxControlError("status", "A fault needs a status, a latency, or both.");
    const statuses = owner.statuses(operation) ?? [];
    if (status !== undefined && (!Number.isInteger(status) || status < 100 || status > 599 || !documents(statuses, status))) {
      throw new SandboxControlError("status", `${operation} documents no status ${String(status)} (documented: ${statuses.join(", ")}).`);
    }
    if (latencySeconds !== undefined && (!isNumber(latencySeconds) || latencySeconds < 0)) {
      throw new SandboxControlError("latencySeconds", "latencySeconds must be a non-negative number.");
    }
    if (!Number.isSafeInteger(count) || count < 1) throw new SandboxControlError("count", "count must be a whole number of requests, at least 1.");
    const pending: PendingFault = { surface, operation, status, latencySeconds, remaining: count };
    if (!this.pending.add(pending)) {
      throw new SandboxControlError("faults", `${maxPendingFaults.toLocaleString("en")} faults wait already, the sandbox's limit: let them run out, or reset.`);
    }
    return { ...pending };
  }

  async faults(): Promise<PendingFault[]> {
    return this.pending.list();
  }
}
