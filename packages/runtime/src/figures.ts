import { ContentScraperError } from "./errors.js";

// The one reading of the figures that move money or time: credits, counts, waits and store replies. A figure from a
// server or a store is read here and nowhere else, and what is not a figure (a negative, NaN, a fraction where a count
// is due, the wrong type, nil) reads as `undefined`: each caller turns that into its typed error, never a default.

/** A count: a non-negative safe integer (credits, a remaining allowance, a number of pages). */
export function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/** A count written in digits (`"12"`), as headers and Redis replies carry it; `-1`, `2.5`, `1e2`, `ten` are none. */
export function readCount(text: unknown): number | undefined {
  if (typeof text === "number") return isCount(text) ? text : undefined;
  if (typeof text !== "string" || !/^\d+$/.test(text.trim())) return undefined;
  const count = Number(text);
  return Number.isSafeInteger(count) ? count : undefined;
}

/** A non-negative finite amount (milliseconds to wait, credits held), from a number or its decimal text. */
export function readAmount(value: unknown): number | undefined {
  const amount = typeof value === "number" ? value : typeof value === "string" && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : Number.NaN;
  return Number.isFinite(amount) && amount >= 0 ? amount : undefined;
}

/** What a store answered, when it is not the figure asked for: a typed error naming the store's method. */
export class StoreReplyError extends ContentScraperError {
  override name = "StoreReplyError";
  constructor(
    /** The store method that answered (`take`, `reserve`, `state`, …). */
    readonly method: string,
    reply: unknown,
  ) {
    super(`the store's ${method} answered ${describeReply(reply)}, not what it must: refused, nothing is granted`);
  }
}

/** A store's reply in a message: its type and a short form, never more than 40 characters of it. */
function describeReply(reply: unknown): string {
  if (reply === null || reply === undefined) return "nil";
  const text = typeof reply === "string" ? JSON.stringify(reply) : Array.isArray(reply) ? "an array" : String(reply);
  return `${typeof reply === "string" ? "the string " : ""}${text.length > 40 ? `${text.slice(0, 40)}…` : text}`;
}
