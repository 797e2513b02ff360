import { randomBytes } from "node:crypto";

// Crockford's base32, as in ULIDs: the service's request ids look like `req_01JD7R1000K8M2N4P6Q8S0T2V`.
const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A fresh request id: `req_`, 10 characters of (sandbox) time, 16 of randomness. */
export function requestId(now: number): string {
  let time = "";
  for (let rest = now, index = 0; index < 10; index++, rest = Math.floor(rest / 32)) time = alphabet[rest % 32] + time;
  let random = "";
  for (const byte of randomBytes(16)) random += alphabet[byte % 32];
  return `req_${time}${random}`;
}
