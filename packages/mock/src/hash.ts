// Deterministic numbers from strings: the sandbox's catalogs and payload variations must be the same on every run with
// the same seed, so nothing here may read the clock or Math.random.

/** A 53-bit hash of the parts (cyrb53), safe as a JavaScript integer. */
export function hash(...parts: ReadonlyArray<string | number>): number {
  const text = parts.join("\u0000");
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** An integer in [min, max], picked by the hash of the parts. */
export function pick(min: number, max: number, ...parts: ReadonlyArray<string | number>): number {
  return min + (hash(...parts) % (max - min + 1));
}
