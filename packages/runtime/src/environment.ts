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

/** Whether a URL's host is this machine: `localhost` (and its subdomains), 127.0.0.0/8 or `[::1]`. */
export function isLoopback(url: URL): boolean {
  const host = url.hostname;
  return host === "localhost" || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host) || host === "[::1]";
}

/**
 * An absolute http(s) URL without trailing slashes, or `fail`s naming the option. `example` shows what is expected
 * (e.g. `https://<host>/api/embed`), `envVar` where else it may come from; the value itself never goes into a message.
 * A URL with a user or password is refused (the credential would travel in every error and log line), and so is plain
 * `http://` to anything but this machine, where the credential would cross the network in cleartext, unless the
 * caller opts in with `allowInsecureHttp`.
 */
export function checkBaseUrl(
  option: string,
  value: string | undefined,
  { example, envVar, allowInsecureHttp = false }: { example: string; envVar?: string | undefined; allowInsecureHttp?: boolean | undefined },
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
  if (url.search || url.hash) throw fail(option, `${option} must not carry a query or a fragment: paths are appended to it.`);
  if (url.username || url.password) throw fail(option, `${option} holds a user or password: pass the credential in its own option, never in the URL.`);
  if (url.protocol === "http:" && !isLoopback(url) && allowInsecureHttp !== true) {
    throw fail(option, `${option} is plain http:// to ${url.host}, which would send the credential in cleartext: use https://, or pass allowInsecureHttp: true.`);
  }
  return url.href.replace(/\/+$/, "");
}
