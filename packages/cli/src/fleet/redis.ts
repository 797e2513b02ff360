import { Redis } from "ioredis";
import { UsageError } from "../usage-error.js";

/** A connection for BullMQ and the fleet's own keys (BullMQ's blocking commands need `maxRetriesPerRequest: null`). */
export async function connectRedis(url: string): Promise<Redis> {
  if (!/^rediss?:\/\//.test(url)) throw new UsageError(`--redis must be a redis:// or rediss:// URL.`);
  const redis = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true });
  redis.on("error", () => {});
  await redis.connect().catch((error: Error) => {
    throw new UsageError(`--redis: cannot reach ${new URL(url).host} (${error.message})`);
  });
  return redis;
}
