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

/** Request bodies held at once beyond each connection's own `connectionBodyBytes`, across requests. */
export const bodyBytesAtOnce = 32 * MiB;

/** Of `bodyBytesAtOnce`, what one peer (`peerOf`: an address, or a connection on loopback) holds at most. */
export const peerBodyBytes = 8 * MiB;

/** Body bytes each connection holds of its own, beyond which its bodies take from `bodyBytesAtOnce`. */
export const connectionBodyBytes = 16 * 1024;

/** How long a body may go without a byte before it is answered 408 and its connection closed. */
export const bodyStallMs = 10_000;

/** Connections open at once; more are refused when they connect. */
export const maxConnections = 4_096;

/** Of `maxConnections`, how many one peer holds at most; more are answered 503 and closed when they connect. */
export const peerConnections = 256;

/**
 * What Node holds for one connection besides its body, at most: its socket, parser and request (about 12 KB), and a head
 * of up to 16 KB of headers (Node's limit), which it keeps as the raw lines and as the parsed object (about 32 KB more).
 * Measured as RSS after a GC, with room to spare.
 */
export const connectionBytes = 56 * 1024;

/** The most the connections hold together, their own bodies included. */
export const connectionsCeilingBytes = maxConnections * (connectionBytes + connectionBodyBytes);

/** The most the stores above are counted for, together. */
export const stateCeilingBytes = Object.entries(stateLimits).reduce((sum, [name, bytes]) => sum + bytes * (copies[name as keyof typeof stateLimits] ?? 1), 0);
