import { createHash } from "node:crypto";

/**
 * The Redis keys of one caller key, under `prefix`. The caller's key (for example a hash of an API key) is hashed
 * again, so that whatever a caller passes, no secret is ever written to Redis. The digest is a hash tag (`{…}`): the
 * keys of one budget share a hash slot, as a script that touches both needs under Redis Cluster.
 */
export function storeKeys(prefix: string, key: string) {
  const tag = `{${createHash("sha256").update(key).digest("base64url")}}`;
  return {
    bucket: `${prefix}:bucket:${tag}`,
    /** When each token was taken (a sorted set by time), for a count's correction: see `servedCount` in the runtime's memory-stores.ts. */
    takes: `${prefix}:bucket:${tag}:takes`,
    budget: `${prefix}:budget:${tag}`,
    reservations: `${prefix}:budget:${tag}:reservations`,
  };
}
