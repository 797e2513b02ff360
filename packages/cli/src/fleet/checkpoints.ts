import type { Redis } from "ioredis";
import type { Checkpoint, CheckpointStore } from "../export/checkpoint.js";
import { exportId, exportKeys } from "./keys.js";
import { connectRedis } from "./redis.js";

/** Saves a checkpoint only while this processing still owns the creator (a worker thought dead must not write). */
const saveIfOwner = `
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1`;

export class OwnershipLostError extends Error {
  override name = "OwnershipLostError";
}

/**
 * A fleet's checkpoints: one hash field per creator, so the fleet resumes as a whole from any machine. With an
 * `owner` token, writes are fenced: the job's processing claims the creator first, and a stale worker whose job
 * was handed to another (its lock expired) gets `OwnershipLostError` instead of overwriting the new one's progress.
 */
export function redisCheckpoints(redis: Redis, id: string, owner?: { creator: string; token: string }): CheckpointStore & { claim(): Promise<void> } {
  const keys = exportKeys(id);
  return {
    claim: async () => {
      if (owner) await redis.hset(keys.owners, owner.creator, owner.token);
    },
    load: async (creator) => {
      const text = await redis.hget(keys.checkpoints, creator);
      return text === null ? undefined : (JSON.parse(text) as Checkpoint);
    },
    save: async (checkpoint) => {
      const json = JSON.stringify(checkpoint);
      if (!owner) {
        await redis.hset(keys.checkpoints, checkpoint.creator, json);
        return;
      }
      const saved = await redis.eval(saveIfOwner, 2, keys.owners, keys.checkpoints, checkpoint.creator, owner.token, json);
      if (saved !== 1) throw new OwnershipLostError(`${checkpoint.creator} was handed to another worker`);
    },
    all: async () => Object.values(await redis.hgetall(keys.checkpoints)).map((text) => JSON.parse(text) as Checkpoint),
    close: async () => {},
  };
}

/** A fleet export's checkpoints, found from the arguments that started it (for `poll --redis`); `close()` disconnects. */
export async function openFleetCheckpoints(url: string, platform: string, out: string, creators: string[]): Promise<CheckpointStore> {
  const redis = await connectRedis(url);
  const store = redisCheckpoints(redis, exportId(platform, out, creators));
  return { ...store, close: () => redis.quit().then(() => undefined) };
}
