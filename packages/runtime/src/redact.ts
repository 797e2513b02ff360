import { ContentScraperError } from "./errors.js";
import { publicKeyPrefixes } from "./keys.js";
import type { Logger } from "./logger.js";

/** What a credential is replaced with. */
export const redacted = "[redacted]";

// A shorter value is no credential (and replacing it would mangle ordinary words).
const minSecretLength = 4;

// The shortest piece of a secret's random part that is redacted on its own: a tail, a half, what a server cut off.
const runLength = 12;

// Every run of 12 characters of a random part holds one of its 6-character blocks (at offsets 0, 6, 12 …) whole: the
// blocks are what is searched for, and each one found is followed both ways along the random part.
const blockLength = runLength / 2;

/**
 * The one redaction of the SDK: it knows every credential a client holds (a key, an access or refresh token, a client
 * secret, a URL's password, a Redis password) and removes each from whatever the client lets out: the errors it throws
 * (message, stack, every field, the whole `cause` chain), its log lines, its hook events and what the CLI writes. Its
 * credentials sit in private fields: no `util.inspect` shows them.
 *
 * It finds a credential in any case and in every form a server may echo it in: with any of its characters
 * percent-encoded, backslash-escaped (`\u0073`, `\x73`, `\/`) or written as an HTML entity (`&#115;`, `&#x73;`,
 * `&lowbar;`); base64, base64url or hex encoded, also inside a longer base64 string (HTTP Basic, an opaque cursor); and
 * any run of 12 or more characters of its random part (a tail, one half), never its public prefix (`scrape_live_`).
 */
export class Redactor {
  readonly #secrets = new Set<string>();
  /** Every credential's whole forms, longest first. */
  #forms: RegExp | undefined;
  /** The 6-character blocks of every random part. */
  #blocks: RegExp | undefined;
  /** Each block (in lower case), and where it stands in the random parts (in lower case) it was cut from. */
  #places = new Map<string, Array<{ random: string; offset: number }>>();

  constructor(secrets: Iterable<string | undefined> = []) {
    this.add(...secrets);
  }

  /** Learns more credentials (a token obtained later, a refreshed one); values too short to be one are ignored. */
  add(...secrets: Array<string | undefined>): this {
    const before = this.#secrets.size;
    for (const secret of secrets) if (typeof secret === "string" && secret.length >= minSecretLength) this.#secrets.add(secret);
    if (this.#secrets.size > before) this.#compile();
    return this;
  }

  /** Whether `text` holds a credential. */
  leaks(text: string): boolean {
    return this.#forms !== undefined && this.#spans(decode(text)?.view ?? text).length > 0;
  }

  /** `text` with every credential replaced by `[redacted]`. */
  text(text: string): string {
    if (!this.#forms) return text;
    const decoded = decode(text);
    const spans = this.#spans(decoded?.view ?? text);
    if (spans.length === 0) return text;
    const at = (index: number) => (decoded ? (decoded.from[index] as number) : index);
    let kept = "";
    let copied = 0;
    for (let index = 0; index < spans.length; index += 2) {
      kept += `${text.slice(copied, at(spans[index] as number))}${redacted}`;
      copied = at(spans[index + 1] as number);
    }
    return kept + text.slice(copied);
  }

  /**
   * A copy of `value` with every string redacted, through plain objects, arrays and errors (a value without a credential
   * is returned as it is). For log details and the bodies errors carry.
   */
  value<T>(value: T): T {
    return this.#value(value, new Map()) as T;
  }

  /**
   * The error a client lets out, redacted: one of the SDK's own (`ContentScraperError`) is redacted in place (its
   * message, stack and every field); any other error is returned as it is when it holds no credential, else as a
   * redacted copy (an `Error` with the same name). Either way the whole `cause` chain is redacted.
   */
  error<E>(error: E): E {
    if (!this.#forms || !(error instanceof Error)) return error;
    return this.#error(error, new Map()) as E;
  }

  /** `work`, with every error it throws redacted (`error`): a client's door. */
  async redacting<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw this.error(error);
    }
  }

  /** The headers, or a copy without the credentials a server echoed in them. */
  headers(headers: Headers): Headers {
    // One look at every value at once: most answers echo nothing, and a header at a time costs a scan each.
    if (!this.#forms || !this.leaks([...headers.values()].join("\n"))) return headers;
    let copy: Headers | undefined;
    for (const [name, value] of headers) {
      if (!this.leaks(value)) continue;
      copy ??= new Headers(headers);
      copy.set(name, this.text(value));
    }
    return copy ?? headers;
  }

  /** `logger` with every message and detail redacted; a method it lacks stays absent (callers skip building its details). */
  logger(logger: Logger): Logger {
    const wrap = (method: Logger[keyof Logger]) =>
      method && ((message: string, details?: Record<string, unknown>) => method.call(logger, this.text(message), details && this.value(details)));
    return { debug: wrap(logger.debug), info: wrap(logger.info), warn: wrap(logger.warn), error: wrap(logger.error) };
  }

  /** The two patterns of the credentials known: compiled once for each set. */
  #compile(): void {
    const forms = new Set<string>();
    this.#places = new Map();
    for (const secret of this.#secrets) {
      const { whole, random } = formsOf(secret);
      for (const form of whole) if (form.length >= minSecretLength) forms.add(form.toLowerCase());
      for (const part of random) {
        const lower = part.toLowerCase();
        for (let offset = 0; offset + blockLength <= lower.length; offset += blockLength) {
          const block = lower.slice(offset, offset + blockLength);
          this.#places.set(block, [...(this.#places.get(block) ?? []), { random: lower, offset }]);
        }
      }
    }
    this.#forms = anyOf([...forms].sort((a, b) => b.length - a.length));
    this.#blocks = this.#places.size > 0 ? anyOf([...this.#places.keys()]) : undefined;
  }

  /** Where credentials stand in `view`: the start and end of each, in order, those that overlap or touch joined. */
  #spans(view: string): number[] {
    const found: Array<[number, number]> = [];
    const forms = this.#forms as RegExp;
    forms.lastIndex = 0;
    for (let hit = forms.exec(view); hit; hit = forms.exec(view)) found.push([hit.index, hit.index + hit[0].length]);
    const blocks = this.#blocks;
    if (blocks) {
      blocks.lastIndex = 0;
      for (let hit = blocks.exec(view); hit; hit = blocks.exec(view)) {
        const run = this.#runAround(view, hit.index, hit[0]);
        if (run) found.push(run);
        blocks.lastIndex = run ? run[1] : hit.index + 1;
      }
    }
    if (found.length === 0) return [];
    found.sort((a, b) => a[0] - b[0]);
    const spans: number[] = [];
    for (const [start, end] of found) {
      const last = spans.length - 1;
      if (spans.length > 0 && start <= (spans[last] as number)) spans[last] = Math.max(spans[last] as number, end);
      else spans.push(start, end);
    }
    return spans;
  }

  /** The run of a random part around the block found at `start` in `view`, when it is 12 characters or more. */
  #runAround(view: string, start: number, block: string): [number, number] | undefined {
    let longest: [number, number] | undefined;
    for (const { random, offset } of this.#places.get(block.toLowerCase()) ?? []) {
      let before = 0;
      while (before < offset && before < start && view[start - before - 1]?.toLowerCase() === random[offset - before - 1]) before++;
      let after = blockLength;
      while (offset + after < random.length && view[start + after]?.toLowerCase() === random[offset + after]) after++;
      if (before + after >= runLength && (!longest || before + after > longest[1] - longest[0])) longest = [start - before, start + after];
    }
    return longest;
  }

  #value(value: unknown, seen: Map<object, unknown>): unknown {
    if (typeof value === "string") return this.text(value);
    if (typeof value !== "object" || value === null) return value;
    if (seen.has(value)) return seen.get(value);
    if (value instanceof Error) return this.#error(value, seen);
    if (value instanceof Headers) return this.headers(value);
    if (Array.isArray(value)) {
      const copy: unknown[] = [];
      seen.set(value, copy);
      for (const item of value) copy.push(this.#value(item, seen));
      return copy.every((item, index) => item === value[index]) ? value : copy;
    }
    if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
    const copy: Record<string, unknown> = {};
    seen.set(value, copy);
    let changed = false;
    for (const [key, item] of Object.entries(value)) {
      copy[key] = this.#value(item, seen);
      changed ||= copy[key] !== item;
    }
    return changed ? copy : value;
  }

  #error(error: Error, seen: Map<object, unknown>): Error {
    if (seen.has(error)) return seen.get(error) as Error;
    if (error instanceof ContentScraperError) {
      seen.set(error, error);
      for (const key of Reflect.ownKeys(error)) {
        const descriptor = Object.getOwnPropertyDescriptor(error, key);
        if (descriptor && "value" in descriptor && descriptor.writable) (error as unknown as Record<PropertyKey, unknown>)[key] = this.#value(descriptor.value, seen);
      }
      return error;
    }
    if (!this.#holds(error, new Set())) return error;
    const copy = new Error(this.text(error.message));
    seen.set(error, copy);
    copy.name = error.name;
    copy.stack = error.stack === undefined ? undefined : this.text(error.stack);
    if (error.cause !== undefined) copy.cause = this.#value(error.cause, seen);
    return copy;
  }

  /** Whether a foreign error holds a credential anywhere: its message, stack, string fields or cause chain. */
  #holds(value: unknown, visited: Set<unknown>): boolean {
    if (typeof value === "string") return this.leaks(value);
    if (typeof value !== "object" || value === null || visited.has(value)) return false;
    visited.add(value);
    if (value instanceof Error && (this.leaks(value.message) || this.leaks(value.stack ?? "") || this.#holds(value.cause, visited))) return true;
    return Object.values(value).some((item) => this.#holds(item, visited));
  }
}

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** One pattern finding any of `literals`, in any case. */
const anyOf = (literals: string[]) => new RegExp(literals.map(literally).join("|"), "gi");

/**
 * What a server may send instead of `secret`: the whole of it as it is and base64 or hex encoded (`whole`), and its
 * random part, the secret without a public key prefix, of which any 12 characters are redacted (`random`) when it
 * looks random. A secret
 * holding what reads as an escape (`%41`) is found in a text's decoded view undone, so that form is added too.
 */
function formsOf(secret: string): { whole: string[]; random: string[] } {
  const prefix = publicKeyPrefixes.find((candidate) => secret.startsWith(candidate) && secret.length > candidate.length);
  const random = prefix === undefined ? secret : secret.slice(prefix.length);
  const bytes = new TextEncoder().encode(secret);
  const whole = [secret, ...base64Forms(bytes), Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")];
  const runs = random.length >= runLength && looksRandom(random) ? [random] : [];
  const undone = decode(secret)?.view;
  if (undone !== undefined && undone !== secret) {
    whole.push(undone);
    runs.push(...runs.map((run) => decode(run)?.view ?? run));
  }
  return { whole, random: runs };
}

/**
 * Whether a random part mixes letters and digits, or both cases, as every generated key and token does (a 12-character
 * window of a random base62 string lacks the mix about once in 30 000). A word-like one (the sandbox's documented magic
 * tokens, such as `sandbox_insufficient_scope`) is redacted whole, not by runs: its runs are the words the service's
 * own answers use (`insufficient_scope`).
 */
const looksRandom = (part: string) => [/[a-z]/, /[A-Z]/, /[0-9]/].filter((kind) => kind.test(part)).length >= 2;

const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const urlSafe = (text: string) => text.replaceAll("+", "-").replaceAll("/", "_");

/**
 * The secret base64 and base64url encoded, with and without padding; and, for each of the three ways its bytes can
 * fall into base64's 3-byte groups inside a longer encoded string (`client_id:secret` for HTTP Basic, a JSON cursor),
 * the characters that encode its whole groups alone. What is left at either end encodes at most two of its bytes.
 */
function base64Forms(bytes: Uint8Array): string[] {
  const padded = base64(bytes);
  const forms = [padded, padded.replace(/=+$/, "")];
  for (let skip = 0; skip < 3; skip++) {
    const grouped = Math.floor((bytes.length - skip) / 3) * 3;
    // Fewer than 9 bytes make fewer than 12 characters: too short to tell from other text.
    if (grouped >= 9) forms.push(base64(bytes.subarray(skip, skip + grouped)));
  }
  return [...forms, ...forms.map(urlSafe)];
}

/** The characters an escape starts with: a text without any reads as it is. */
const escapeStart = /[%\\&]/g;

/** HTML's names for the characters a credential may hold, in lower case. */
const namedCharacters = new Map(
  Object.entries({
    excl: "!", quot: '"', num: "#", dollar: "$", percnt: "%", amp: "&", apos: "'", lpar: "(", rpar: ")", ast: "*", midast: "*",
    plus: "+", comma: ",", period: ".", sol: "/", colon: ":", semi: ";", lt: "<", equals: "=", gt: ">", quest: "?", commat: "@",
    lsqb: "[", lbrack: "[", bsol: "\\", rsqb: "]", rbrack: "]", hat: "^", lowbar: "_", underbar: "_", grave: "`", diacriticalgrave: "`",
    lcub: "{", lbrace: "{", verbar: "|", vert: "|", verticalline: "|", rcub: "}", rbrace: "}",
  }),
);

/**
 * `text` with every escape a server may put on a single character undone, and where in `text` each character of that
 * view starts (`from`, one more entry for the end): so that a match in the view is replaced in the text. `undefined`
 * when the text holds nothing that starts an escape. One layer of escapes only: `%255F` reads as `%5F`.
 */
function decode(text: string): { view: string; from: Uint32Array } | undefined {
  let from: Uint32Array | undefined;
  let view = "";
  let length = 0;
  let copied = 0;
  escapeStart.lastIndex = 0;
  for (let found = escapeStart.exec(text); found; found = escapeStart.exec(text)) {
    const index = found.index;
    const escaped = escapeAt(text, index);
    if (escaped === undefined) continue;
    from ??= new Uint32Array(text.length + 1);
    view += text.slice(copied, index) + escaped.char;
    while (copied < index) from[length++] = copied++;
    from[length++] = index;
    copied = index + escaped.length;
    escapeStart.lastIndex = copied;
  }
  if (from === undefined) return undefined;
  view += text.slice(copied);
  while (copied < text.length) from[length++] = copied++;
  from[length] = text.length;
  return { view, from };
}

/**
 * The escape at `index`, if one starts there: `%73`, `\u0073`, `\x73`, `\/`, `&#115;`, `&#x73;`, `&lowbar;`. A `\u` or
 * `\x` escape may follow several backslashes (`\\u0073`): JSON holding escaped text escapes the backslash again.
 */
function escapeAt(text: string, index: number): { char: string; length: number } | undefined {
  const next = text[index + 1];
  switch (text[index]) {
    case "%":
      return character(hexAt(text, index + 1, 2), 3);
    case "\\": {
      let slashes = 1;
      while (slashes < maxBackslashes && text[index + slashes] === "\\") slashes++;
      const letter = text[index + slashes];
      if (letter === "u" || letter === "U") return character(hexAt(text, index + slashes + 1, 4), slashes + 5);
      if (letter === "x" || letter === "X") return character(hexAt(text, index + slashes + 1, 2), slashes + 3);
      return next === '"' || next === "\\" || next === "/" || next === "'" ? { char: next, length: 2 } : undefined;
    }
    case "&":
      return next === "#" ? numericEntity(text, index) : namedEntity(text, index);
    default:
      return undefined;
  }
}

// The most backslashes read before a `\u` escape: text escaped in JSON, written in JSON again, and again.
const maxBackslashes = 8;

const character = (code: number, length: number) => (code > 0 ? { char: String.fromCharCode(code), length } : undefined);

/** The value of the hex digit `code` (a character code), or -1. */
function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 32;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/** The value of exactly `digits` hex digits at `index`, or -1. */
function hexAt(text: string, index: number, digits: number): number {
  let value = 0;
  for (let at = index; at < index + digits; at++) {
    const digit = hexDigit(text.charCodeAt(at));
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** `&#115;` or `&#x73;`, leading zeros allowed and the semicolon optional, as browsers read them; one UTF-16 unit at most. */
function numericEntity(text: string, index: number): { char: string; length: number } | undefined {
  const hex = (text.charCodeAt(index + 2) | 32) === 120;
  const base = hex ? 16 : 10;
  const start = index + (hex ? 3 : 2);
  let value = 0;
  let end = start;
  // 12 digits at most: a longer number is no character, and reading on would make a run of digits cost its square.
  for (; end < start + 12; end++) {
    const digit = hexDigit(text.charCodeAt(end));
    if (digit < 0 || digit >= base) break;
    value = value * base + digit;
  }
  if (end === start || value > 0xffff) return undefined;
  return character(value, end - index + (text[end] === ";" ? 1 : 0));
}

/** `&lowbar;`: a name HTML gives a character a credential may hold, closed by its semicolon. */
function namedEntity(text: string, index: number): { char: string; length: number } | undefined {
  let end = index + 1;
  while (end < index + 18 && ((text.charCodeAt(end) | 32) - 97) >>> 0 < 26) end++;
  if (text[end] !== ";") return undefined;
  const char = namedCharacters.get(text.slice(index + 1, end).toLowerCase());
  return char === undefined ? undefined : { char, length: end - index + 1 };
}
