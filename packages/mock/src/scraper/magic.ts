import type { ErrorCode } from "../generated/scraper.operations.js";
import { statusOf } from "./rules.js";

// Magic inputs, like test card numbers: an identifier that makes the sandbox answer a given way, so partners can
// exercise every branch of their integration. The README's table is this list.

export type Outcome =
  /** The operation's documented error response whose example carries one of these codes (the first it documents). */
  | { kind: "error"; codes: readonly ErrorCode[] }
  /** The operation's documented `text/plain` response: the gateway's bare 504. */
  | { kind: "plain-text" }
  /** 200 with an empty catalog. */
  | { kind: "empty" }
  /** 200 with a catalog whose page one overshoots the nominal page size. */
  | { kind: "overshoot" }
  /** The caller's whole rate limit spent in this one call: 429 with the bucket's (short) Retry-After. */
  | { kind: "rate-limited" }
  /** A cursor the sandbox did not issue: a billed page one, as the service answers a stale cursor. */
  | { kind: "stale-cursor" }
  /** The usual 200, after the platform's typical duration. */
  | { kind: "slow" };

/** `Retry-After` of the sandbox's `SCRAPER_SYSTEM_BUSY`: the reference gives no value, so the sandbox keeps the wait short. */
export const busyRetryAfterSeconds = 1;

export interface MagicInput {
  input: string;
  /** Where it is sent: as an identifier (the default), or as a listing's `cursor`. */
  field?: "cursor";
  outcome: Outcome;
  /** What the sandbox answers, in the README's words. */
  answer: string;
}

/** The inputs that make the sandbox answer a given way (`notfound`, `busy`, …), with the answer each one gives. */
export const magicInputs: readonly MagicInput[] = [
  {
    input: "notfound",
    outcome: { kind: "error", codes: ["PROFILE_NOT_FOUND", "POST_NOT_FOUND", "RESOURCE_NOT_FOUND"] },
    answer: "404 `PROFILE_NOT_FOUND` (`POST_NOT_FOUND` on post lookups, `RESOURCE_NOT_FOUND` on focused operations), billed at the operation's rate",
  },
  { input: "nopost", outcome: { kind: "empty" }, answer: "200 with an empty `posts` array and no `next_cursor`, billed; other operations answer as usual" },
  {
    input: "overshoot",
    outcome: { kind: "overshoot" },
    answer:
      "200 on a posts listing whose page size is nominal (`shortvideo`, `photoshare`, `videosite`, `microblog`): page one holds a few more posts than the page size and page two as many fewer, billed; other operations answer as usual",
  },
  {
    input: "ratelimited",
    outcome: { kind: "rate-limited" },
    answer: "429 `SCRAPER_RATE_LIMITED`: the key's whole bucket is spent in this one call, with the bucket's `Retry-After` (1 s at the default rate), free",
  },
  {
    input: "stale",
    field: "cursor",
    outcome: { kind: "stale-cursor" },
    answer: "as a listing's `cursor`: 200 with page one, billed, as for any stale or unrecognised cursor",
  },
  {
    input: "busy",
    outcome: { kind: "error", codes: ["SCRAPER_SYSTEM_BUSY"] },
    answer: `${statusOf("SCRAPER_SYSTEM_BUSY")} \`SCRAPER_SYSTEM_BUSY\` with \`Retry-After: ${busyRetryAfterSeconds}\`, refunded (charged 0) and not counted against the rate limit`,
  },
  { input: "upstreamerror", outcome: { kind: "error", codes: ["UPSTREAM_ERROR"] }, answer: "502 `UPSTREAM_ERROR`, refunded" },
  { input: "upstreamtimeout", outcome: { kind: "error", codes: ["UPSTREAM_TIMEOUT"] }, answer: "504 `UPSTREAM_TIMEOUT` (JSON), refunded" },
  { input: "internalerror", outcome: { kind: "error", codes: ["INTERNAL_ERROR"] }, answer: "500 `INTERNAL_ERROR`, refunded" },
  {
    input: "gatewaytimeout",
    outcome: { kind: "plain-text" },
    answer: "504 with the gateway's bare `text/plain` body (no JSON, no `X-Scraper-Credits-Charged`), refunded",
  },
  { input: "slow", outcome: { kind: "slow" }, answer: "200 as usual, after the upper bound of the platform's typical duration (`x-typical-duration-seconds`) times `timeScale`, on the sandbox clock" },
];

const byInput = new Map(magicInputs.filter((magic) => magic.field === undefined).map((magic) => [magic.input, magic]));

/** The magic word a value stands for: a handle without `@`, or a URL's last path segment. */
function wordOf(value: string): string {
  const path = value.split(/[?#]/)[0] ?? "";
  const word = path.includes("/") ? (path.split("/").filter(Boolean).at(-1) ?? "") : path;
  return word.replace(/^@/, "").toLowerCase();
}

/** The magic input among the body's identifier fields (all its strings where the request's fields are not shown). */
export function magicOf(body: unknown, fields: readonly string[] | undefined): { magic: MagicInput; value: string } | undefined {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return undefined;
  for (const [field, value] of Object.entries(body)) {
    if (typeof value !== "string" || (fields && !fields.includes(field))) continue;
    const word = wordOf(value);
    const magic = byInput.get(word);
    if (magic) return { magic, value: word };
  }
  return undefined;
}
