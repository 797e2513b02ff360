import { createHash } from "node:crypto";

/**
 * The Redis keys of one caller key, under `prefix`. The caller's key (for example a hash of an API key) is hashed
 * again, so that whatever a caller passes, no secret is ever written to Redis. The digest is a hash tag (`{…}`), so the
 * keys of one budget live in one Redis Cluster slot and a script may touch them together.
 */
export function storeKeys(prefix: string, key: string) {
  const tag = `{${createHash("sha256").update(key).digest("base64url")}}`;
  return {
    bucket: `${prefix}:bucket:${tag}`,
    budget: `${prefix}:budget:${tag}`,
    reservations: `${prefix}:budget:${tag}:reservations`,
  };
}
