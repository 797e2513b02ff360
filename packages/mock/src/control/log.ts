import { BoundedMap } from "../bounded.js";
import { stateLimits } from "../limits.js";

// The request log: what every surface answered, newest last, for tests to read back (`log()`). No credential is kept:
// entries name the request by its id, as a partner quotes it to support.

/** One answered request. */
export interface LogEntry {
  /** When it was answered, in sandbox time (ISO 8601). */
  time: string;
  /** The surface that answered (`scraper`, `platform`, `platformLegacy`, `connect`), or `null` outside every surface. */
  surface: string | null;
  /** The operationId, where the request named a documented operation. */
  operation: string | null;
  method: string;
  /** The request's path, without the query. */
  path: string;
  status: number;
  /** Credits charged (the scraper's `X-Scraper-Credits-Charged`), or `null` on surfaces that do not bill per request. */
  creditsCharged: number | null;
  /** The request id the answer carries, where it carries one. */
  requestId: string | null;
}

/** Which entries of the request log to read; every field narrows, none means all. */
export interface LogFilter {
  /** Only this operation's requests. */
  operation?: string | undefined;
  /** Only this surface's requests. */
  surface?: string | undefined;
  /** The last `limit` entries (after filtering). */
  limit?: number | undefined;
}

/** The log, bounded (`stateLimits.log`) so a long-running sandbox does not grow without end: the oldest entries go first. */
export class RequestLog {
  readonly #entries = new BoundedMap<LogEntry>(stateLimits.log);
  #added = 0;

  add(entry: LogEntry): void {
    this.#entries.set(String(++this.#added), entry);
  }

  read({ operation, surface, limit }: LogFilter = {}): LogEntry[] {
    const matching = this.#entries.values().filter((entry) => (operation === undefined || entry.operation === operation) && (surface === undefined || entry.surface === surface));
    return limit === undefined ? matching : matching.slice(Math.max(0, matching.length - limit));
  }

  clear(): void {
    this.#entries.clear();
  }
}
