import { readCount } from "./figures.js";

// The one reading of the headers the clients act on. A header sent twice reaches us joined with ", " (that is what
// `Headers.get` returns), so each reader splits the list and says which element wins.

// The day name an HTTP-date starts with (IMF-fixdate "Sat,", RFC 850 "Saturday,", asctime "Sat ").
const dayName = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*/;

/** The elements of a header's list value, an HTTP-date's own comma kept inside it ("Sat, 22 Nov 2025 …"). */
function elements(value: string): string[] {
  const parts: string[] = [];
  for (const part of value.split(",")) {
    const previous = parts.at(-1)?.trim();
    if (previous !== undefined && dayName.test(previous) && !previous.includes(" ")) parts[parts.length - 1] = `${previous},${part}`;
    else parts.push(part);
  }
  return parts.map((part) => part.trim()).filter((part) => part !== "");
}

/** One `Retry-After` element in milliseconds, or `undefined` when it is neither seconds nor an HTTP-date. */
function retryAfterElement(element: string, now: number): number | undefined {
  if (/^\d+(\.\d+)?$/.test(element)) return Math.min(Math.ceil(Number(element) * 1000), Number.MAX_SAFE_INTEGER);
  // Anything but seconds or an HTTP-date ("-3", "soon") is unreadable.
  if (!dayName.test(element)) return undefined;
  const date = Date.parse(element);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * `Retry-After` in milliseconds: delay-seconds or an HTTP-date (RFC 9110 §10.2.3), `undefined` when absent or
 * unreadable. The answers to what RFC 9110 does not allow:
 * - fractional seconds (`1.5`) are read, rounded up to the next millisecond: the server's intent is plain;
 * - negative (`-3`) or non-numeric (`soon`) values are unreadable, as if the header were absent;
 * - a date in the past is 0;
 * - a repeated header (`5, 3600`) waits for its longest readable element, the only wait that honours every one;
 * - an absurd value is returned as it is (capped at `Number.MAX_SAFE_INTEGER`), so that `maxRetryWaitMs` refuses it
 *   and the caller sees what the server asked for.
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const value = headers.get("retry-after");
  if (value === null) return undefined;
  let longest: number | undefined;
  for (const element of elements(value)) {
    const ms = retryAfterElement(element, now);
    if (ms !== undefined && (longest === undefined || ms > longest)) longest = ms;
  }
  return longest;
}

/**
 * A header that counts something (a rate limit, what remains of it, credits), or `undefined` when absent or
 * unreadable. A count is a non-negative integer written in digits: `-1`, `2.5`, `1e2`, `ten` and numbers beyond
 * `Number.MAX_SAFE_INTEGER` are unreadable. A repeated header reads as its smallest readable element: for a limit or
 * a remaining allowance, the reading that never promises more than the server does.
 */
export function countHeader(headers: Headers, name: string): number | undefined {
  const value = headers.get(name);
  if (value === null) return undefined;
  let smallest: number | undefined;
  for (const element of elements(value)) {
    const count = readCount(element);
    if (count !== undefined && (smallest === undefined || count < smallest)) smallest = count;
  }
  return smallest;
}

/** A surface's rate-limit headers (`<prefix>-Limit`, `-Remaining`, `-Reset`), as `countHeader` reads them. */
export interface RateLimitHeaders {
  limit: number | undefined;
  remaining: number | undefined;
  /** As the service sent it: its format is not documented, so it is not interpreted. */
  reset: string | undefined;
}

/** Reads `<prefix>-Limit`, `<prefix>-Remaining` and `<prefix>-Reset` (e.g. prefix `x-scraper-ratelimit`). */
export function rateLimitHeaders(headers: Headers, prefix: string): RateLimitHeaders {
  return {
    limit: countHeader(headers, `${prefix}-limit`),
    remaining: countHeader(headers, `${prefix}-remaining`),
    reset: headers.get(`${prefix}-reset`) ?? undefined,
  };
}
