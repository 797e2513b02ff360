/** Whether this looks like a browser page (a `window` with a `document`). */
export function isBrowser(): boolean {
  const scope = globalThis as { window?: { document?: unknown } };
  return typeof scope.window !== "undefined" && typeof scope.window.document !== "undefined";
}

/** An environment variable, where there is a `process`. */
export const env = (name: string): string | undefined => (typeof process === "undefined" ? undefined : process.env?.[name]);

/** Builds the error an unusable option is reported with; `field` names the option. */
export type InputErrorFactory = (field: string, message: string) => Error;

/** A non-negative (or positive) finite number, or the fallback when `value` is undefined; otherwise `fail`s naming the option. */
export function checkNumber(
  option: string,
  value: number | undefined,
  fallback: number,
  { positive = false, integer = false }: { positive?: boolean; integer?: boolean },
  fail: InputErrorFactory,
): number {
  if (value === undefined) return fallback;
  const ok = typeof value === "number" && Number.isFinite(value) && (positive ? value > 0 : value >= 0) && (!integer || Number.isInteger(value));
  if (!ok) throw fail(option, `${option} must be a ${positive ? "positive" : "non-negative"} ${integer ? "integer" : "number"}.`);
  return value;
}

/**
 * An absolute http(s) URL without trailing slashes, or `fail`s naming the option. `example` shows what is expected
 * (e.g. `https://<host>/api/embed`), `envVar` where else it may come from; the value itself never goes into a message.
 */
export function checkBaseUrl(
  option: string,
  value: string | undefined,
  { example, envVar }: { example: string; envVar?: string | undefined },
  fail: InputErrorFactory,
): string {
  if (!value) throw fail(option, `${option} is missing: pass the API's base address (e.g. ${example})${envVar ? `, or set ${envVar}` : ""}.`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw fail(option, `${option} is not an absolute URL (expected e.g. ${example}).`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw fail(option, `${option} must be an http(s) URL, not ${url.protocol}`);
  return url.href.replace(/\/+$/, "");
}
