// The sandbox's limits on what it keeps in memory. They are sandbox choices, not the service's (the reference states
// none of these), and the README's "Memory" table lists each: together they are a ceiling no caller can pass, whatever
// it sends and however many credentials it makes up.

const MiB = 1024 * 1024;

/** The bytes each store a caller can grow may hold, as `weigh` counts them. */
export const stateLimits = {
  /** Scraper accounts: a balance and a bucket per key. */
  accounts: 64 * MiB,
  /** Rate-limit buckets per credential, on each of the platform, key-based platform and connect surfaces. */
  buckets: 16 * MiB,
  /** Registered OAuth clients, their metadata as sent. */
  clients: 32 * MiB,
  /** Authorization codes. */
  codes: 16 * MiB,
  /** Access and refresh tokens the sandbox issued. */
  tokens: 32 * MiB,
  /** Idempotent writes' stored answers. */
  idempotency: 32 * MiB,
  /** The request log. */
  log: 16 * MiB,
  /** Prism's static answers asked for since the start (`scraper/engine.ts`: a `Prefer`, a fault, an error's example). */
  answers: 4 * MiB,
} as const;

/** How many of each store there are where there is more than one: one per surface that holds it. */
const copies: Partial<Record<keyof typeof stateLimits, number>> = {
  // The platform, key-based platform and connect surfaces.
  buckets: 3,
  // The surfaces Prism serves: the scraper, platform and key-based platform.
  answers: 3,
};

/** Faults waiting for requests (only the control API adds them). */
export const maxPendingFaults = 1_000;

/** Request bodies held at once, across requests: a body waits for room before it is read. */
export const bodyBytesAtOnce = 32 * MiB;

/** Connections open at once; more are refused when they connect. Each holds at most 16 KB of headers (Node's limit). */
export const maxConnections = 4_096;

/** The most bytes the stores above are counted for, together. */
export const stateCeilingBytes = Object.entries(stateLimits).reduce((sum, [name, bytes]) => sum + bytes * (copies[name as keyof typeof stateLimits] ?? 1), 0);
