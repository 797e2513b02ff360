import { maxPendingFaults } from "../limits.js";

// Faults and latency injected on the next requests of an operation, like a flaky upstream on demand: a test injects
// them through the control API and the surface answers them in its own terms (envelope, billing, headers).

/** What a fault does to a request. */
export interface FaultEffect {
  /** Answer this documented status instead of the usual one. */
  status?: number | undefined;
  /** Wait this long (sandbox time) before answering. */
  latencyMs?: number | undefined;
}

/** A fault waiting for its requests. */
export interface PendingFault {
  surface: string;
  operation: string;
  /** The documented status it answers, if any. */
  status?: number | undefined;
  /** The sandbox time it waits before answering, if any. */
  latencySeconds?: number | undefined;
  /** Requests it still applies to. */
  remaining: number;
}

export class Faults {
  #pending: PendingFault[] = [];

  /** Adds a fault; false, adding nothing, when `maxPendingFaults` wait already. */
  add(fault: PendingFault): boolean {
    if (this.#pending.length >= maxPendingFaults) return false;
    this.#pending.push(fault);
    return true;
  }

  /** The effect on this request of the operation, if a fault waits for it; each request uses up one. */
  take(surface: string, operation: string): FaultEffect | undefined {
    const fault = this.#pending.find((candidate) => candidate.surface === surface && candidate.operation === operation);
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.#pending = this.#pending.filter((candidate) => candidate !== fault);
    return { status: fault.status, latencyMs: fault.latencySeconds === undefined ? undefined : fault.latencySeconds * 1000 };
  }

  list(): PendingFault[] {
    return this.#pending.map((fault) => ({ ...fault }));
  }

  clear(): void {
    this.#pending = [];
  }
}
