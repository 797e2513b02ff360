/**
 * Values by key, in the order their keys were last put, with the oldest found in constant time on average. (A Map's
 * `keys().next()` passes over every key deleted from its front since the Map last grew: forgetting the oldest entry
 * after each new one, as a full store does, cost time in proportion to the store.)
 */
export class Ordered<Value> {
  // A put makes a new slot, so a key moved to the end is told apart from its old place.
  readonly #slots = new Map<string, { value: Value }>();
  // Walks the slots once, oldest first; what it passes is gone, or was put again further on.
  #cursor = this.#slots.entries();
  #head: [string, { value: Value }] | undefined;

  get size(): number {
    return this.#slots.size;
  }

  get(key: string): Value | undefined {
    return this.#slots.get(key)?.value;
  }

  /** Puts `value` under `key`, last in the order. */
  put(key: string, value: Value): void {
    this.#slots.delete(key);
    this.#slots.set(key, { value });
  }

  delete(key: string): void {
    this.#slots.delete(key);
  }

  clear(): void {
    this.#slots.clear();
  }

  /** The key put longest ago. */
  oldest(): string | undefined {
    while (this.#slots.size > 0) {
      if (this.#head && this.#slots.get(this.#head[0]) === this.#head[1]) return this.#head[0];
      const next = this.#cursor.next();
      // A walk that reached the end stays there: start another from the front.
      if (next.done) this.#cursor = this.#slots.entries();
      this.#head = next.done ? undefined : next.value;
    }
    return undefined;
  }

  entries(): Array<[string, Value]> {
    return Array.from(this.#slots, ([key, slot]) => [key, slot.value]);
  }
}
