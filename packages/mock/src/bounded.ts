import { Ordered } from "./ordered.js";

// A map the sandbox keeps state in, bounded in bytes, so that no caller can grow it without end: every store a request
// can add to (accounts, buckets, clients, codes, tokens, idempotency records, the request log) is one.

/**
 * What V8 spends on an entry besides its key and value (the map's slot and its growth, the objects that hold the entry,
 * and what JSON does not show: numbers and closures in private fields): a token bucket's entry measured about 520 bytes,
 * rounded up here.
 */
export const entryBytes = 640;

/**
 * What V8 spends on a string or a number beyond its characters: its object's header and padding, and the slot that
 * holds it. A short string costs about 32 bytes whatever its length, more than two bytes a character of its JSON.
 */
export const valueBytes = 24;

/** What V8 spends on an array or an object beyond its members: its header, its backing store, the slot that holds it. */
export const containerBytes = 64;

/** What V8 spends on `value` at every depth beyond the characters of its JSON. */
function overhead(value: unknown): number {
  if (typeof value === "string" || typeof value === "number") return valueBytes;
  if (typeof value !== "object" || value === null) return 0;
  let bytes = containerBytes;
  for (const member of Array.isArray(value) ? value : Object.values(value)) bytes += overhead(member);
  return bytes;
}

/**
 * The bytes an entry is counted for: two per character of its key and of its value as JSON (V8 keeps most strings in
 * one byte a character, so this is an upper bound on the characters), what V8 spends on the key and on each value within
 * beyond its characters (`valueBytes`, `containerBytes`), and `entryBytes`. It is never under what V8 holds for the
 * entry (`test/bounded.test.ts` measures it), and an entry counts at least `entryBytes`, so a store holds at most its
 * bytes ÷ `entryBytes` entries.
 */
export function weigh(key: string, value: unknown): number {
  return entryBytes + valueBytes + overhead(value) + 2 * (key.length + (JSON.stringify(value)?.length ?? 0));
}

export class BoundedMap<Value> {
  readonly #entries = new Ordered<{ value: Value; bytes: number }>();
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  /** The bytes its entries are counted for. */
  get bytes(): number {
    return this.#bytes;
  }

  get(key: string): Value | undefined {
    return this.#entries.get(key)?.value;
  }

  /** `get`, counting as a use: the entry goes last in the order `oldest` follows (least recently used first). */
  use(key: string): Value | undefined {
    const entry = this.#entries.get(key);
    if (entry) this.#entries.put(key, entry);
    return entry?.value;
  }

  /** The key added (or used) longest ago. */
  oldest(): string | undefined {
    return this.#entries.oldest();
  }

  values(): Value[] {
    return this.#entries.entries().map(([, entry]) => entry.value);
  }

  entries(): Array<[string, Value]> {
    return this.#entries.entries().map(([key, entry]) => [key, entry.value]);
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#bytes -= entry.bytes;
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  /**
   * Keeps `value` under `key` (last in order), making room first by forgetting the entry `victim` names, one at a time,
   * while the map would pass its bytes: by default the oldest. Answers false, and changes nothing under `key`, when
   * `victim` names none (the store refuses rather than forget what it must keep) or the entry alone passes the bytes.
   */
  set(key: string, value: Value, victim: () => string | undefined = () => this.oldest()): boolean {
    const bytes = weigh(key, value);
    if (bytes > this.maxBytes) return false;
    const previous = this.#entries.get(key);
    this.delete(key);
    while (this.#bytes + bytes > this.maxBytes) {
      const forgotten = victim();
      if (forgotten === undefined || this.#entries.get(forgotten) === undefined) {
        if (previous) this.#add(key, previous);
        return false;
      }
      this.delete(forgotten);
    }
    this.#add(key, { value, bytes });
    return true;
  }

  #add(key: string, entry: { value: Value; bytes: number }): void {
    this.#entries.put(key, entry);
    this.#bytes += entry.bytes;
  }
}
