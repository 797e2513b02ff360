import { containerBytes, entryBytes, valueBytes } from "../bounded.js";
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

/** An entry as the log keeps it: its time as the number it was read as (`time` is made when the log is read). */
export type LoggedAnswer = Omit<LogEntry, "time"> & { at: number };

const keyNames = ["time", "surface", "operation", "method", "path", "status", "creditsCharged", "requestId"] as const satisfies ReadonlyArray<keyof LogEntry>;
// `{`, `}`, a comma between fields, and each `"name":`.
const fixedJsonLength = 2 + (keyNames.length - 1) + keyNames.reduce((length, name) => length + name.length + 3, 0);
// A character JSON may escape: any but those from the space on that are not `"`, `\` or a surrogate (a lone one is
// escaped; a string with a pair is written out to tell).
const escapedCharacter = /[^\x20\x21\x23-\x5b\x5d-\ud7ff\ue000-\uffff]/;
// The ISO 8601 form of a time: 24 characters from 0000-01-01 to 9999-12-31, 27 (a sign and six digits) beyond.
const [yearZero, yearTenThousand] = [-62_167_219_200_000, 253_402_300_800_000];
const isoLength = (at: number) => (at >= yearZero && at < yearTenThousand ? 24 : 27);

/** The length of a value's JSON, without writing it (only a string with a character JSON escapes is written). */
function jsonLength(value: string | number | null): number {
  if (typeof value === "string") return escapedCharacter.test(value) ? JSON.stringify(value).length : value.length + 2;
  return value === null || !Number.isFinite(value) ? 4 : String(value).length;
}

/**
 * What `weigh` counts a log entry as, under its key (the count of entries logged): the same bytes, without writing the
 * entry's JSON for each answer.
 */
export function loggedBytes(key: string, { at, surface, operation, method, path, status, creditsCharged, requestId }: LoggedAnswer): number {
  let length = 0;
  // Strings and numbers, as `weigh` counts them: the key, the time, and every other field that is not null.
  let values = 2;
  for (const value of [surface, operation, method, path, status, creditsCharged, requestId]) {
    length += jsonLength(value);
    if (value !== null) values += 1;
  }
  return entryBytes + containerBytes + valueBytes * values + 2 * (key.length + fixedJsonLength + isoLength(at) + 2 + length);
}

/**
 * The log, bounded (`stateLimits.log`, entries counted as every store counts them) so a long-running sandbox does not
 * grow without end: the oldest entries go first. A queue rather than a `BoundedMap`: entries only ever leave from the
 * front, and an answer costs the log one object.
 */
export class RequestLog {
  #entries: Array<LoggedAnswer | undefined> = [];
  #bytes: number[] = [];
  // Where the entries still kept start: the ones before it are forgotten.
  #first = 0;
  #total = 0;
  #added = 0;

  add(entry: LoggedAnswer): void {
    const bytes = loggedBytes(String(++this.#added), entry);
    if (bytes > stateLimits.log) return;
    while (this.#total + bytes > stateLimits.log) this.#forgetOldest();
    this.#entries.push(entry);
    this.#bytes.push(bytes);
    this.#total += bytes;
  }

  #forgetOldest(): void {
    this.#total -= this.#bytes[this.#first] as number;
    this.#entries[this.#first] = undefined;
    this.#first += 1;
    // Once most of the arrays are forgotten entries, they go (in time proportional to the entries added meanwhile).
    if (this.#first >= 1024 && this.#first * 2 >= this.#entries.length) {
      this.#entries.splice(0, this.#first);
      this.#bytes.splice(0, this.#first);
      this.#first = 0;
    }
  }

  read({ operation, surface, limit }: LogFilter = {}): LogEntry[] {
    const matching: LogEntry[] = [];
    for (let index = this.#first; index < this.#entries.length; index++) {
      const { at, ...entry } = this.#entries[index] as LoggedAnswer;
      if ((operation === undefined || entry.operation === operation) && (surface === undefined || entry.surface === surface)) {
        matching.push({ time: new Date(at).toISOString(), ...entry });
      }
    }
    return limit === undefined ? matching : matching.slice(Math.max(0, matching.length - limit));
  }

  clear(): void {
    this.#entries = [];
    this.#bytes = [];
    this.#first = 0;
    this.#total = 0;
  }
}
