/** A header whose value is an integer, or `undefined` when it is absent, blank or not an integer. */
export function integerHeader(headers: Headers, name: string): number | undefined {
  const value = headers.get(name);
  if (value === null || value.trim() === "") return undefined;
  const number = Number(value);
  return Number.isInteger(number) ? number : undefined;
}

/** `Retry-After` as milliseconds: delay-seconds or an HTTP-date (RFC 9110); `undefined` when absent or unreadable. */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP-date starts with the day name (IMF-fixdate, RFC 850, asctime); anything else ("1.5", "-3") is unreadable.
  if (!/^[A-Za-z]{3}/.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
