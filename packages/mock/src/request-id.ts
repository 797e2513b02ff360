import { randomFillSync } from "node:crypto";

// Crockford's base32, as in ULIDs: the service's request ids look like `req_01JD7R1000K8M2N4P6Q8S0T2V`.
const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

// Random bytes drawn 4 KB at a time: one call to the system's generator per 256 ids, rather than one per id.
const pool = Buffer.alloc(4096);
let drawn = pool.length;

// The time part of the last id: many ids are made within one millisecond.
let lastNow = Number.NaN;
let lastTime = "";

/** A fresh request id: `req_`, 10 characters of (sandbox) time, 16 of randomness. */
export function requestId(now: number): string {
  if (now !== lastNow) {
    lastNow = now;
    lastTime = "";
    for (let rest = now, index = 0; index < 10; index++, rest = Math.floor(rest / 32)) lastTime = alphabet[rest % 32] + lastTime;
  }
  if (drawn + 16 > pool.length) {
    randomFillSync(pool);
    drawn = 0;
  }
  let random = "";
  for (const end = drawn + 16; drawn < end; drawn++) random += alphabet[(pool[drawn] as number) % 32];
  return `req_${lastTime}${random}`;
}
