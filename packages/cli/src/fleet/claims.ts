import type { Redis } from "ioredis";
import type { Creator } from "../creators.js";
import type { CheckpointStore } from "../export/checkpoint.js";
import { CreatorTakenError } from "../export/taken.js";
import type { ExportKeys } from "./keys.js";

/** KEYS: epoch, owners. ARGV: epoch, identity, token. Claims the creator for this processing: the previous owner, '' if none, or -1 when the run's epoch is not `epoch`. */
const claim = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
local previous = redis.call('HGET', KEYS[2], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
return previous or ''`;

/** Same keys and arguments: 1 while this processing still owns the creator in this run, else 0. */
const owns = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('HGET', KEYS[2], ARGV[2]) ~= ARGV[3] then return 0 end
return 1`;

/** Same keys and arguments: lets go of the creator, if this processing still owns it. */
const release = `
if redis.call('HGET', KEYS[2], ARGV[2]) == ARGV[3] then redis.call('HDEL', KEYS[2], ARGV[2]) end
return 1`;

/** The run's epoch is gone or another's: this process must stop (the coordinator restarted, or Redis lost its data). */
export class CoordinationLostError extends Error {
  override name = "CoordinationLostError";
}

/**
 * One processing's hold on a creator, in Redis: claimed before anything is written, checked before every write of its
 * file and every checkpoint (a worker thought dead, whose creator another worker took, can no longer write it), let go
 * at the end. A clean end lets go; a claim that finds a previous owner of this run found a worker that died with the
 * creator.
 */
export function creatorClaim(redis: Redis, keys: ExportKeys, epoch: string, creator: Creator, token: string) {
  const run = (script: string) => redis.eval(script, 2, keys.epoch, keys.owners, epoch, creator.identity, token);
  const held = async () => {
    if ((await run(owns)) !== 1) throw new CreatorTakenError(`${creator.identity} was handed to another worker`);
  };
  return {
    /** Resolves while this processing still holds the creator; throws `CreatorTakenError` once another took it. */
    held,
    /** Claims the creator; answers whether a processing of this run held it before (and died). */
    claim: async (): Promise<boolean> => {
      const previous = await run(claim);
      if (previous === -1) throw new CoordinationLostError("the export's epoch is gone or changed");
      return previous !== "";
    },
    /** `store`, fenced: each save first checks the claim still holds. */
    fence: (store: CheckpointStore): CheckpointStore => ({
      load: (loaded) => store.load(loaded),
      save: async (checkpoint) => {
        await held();
        await store.save(checkpoint);
      },
      close: (file) => store.close(file),
    }),
    release: async () => {
      await run(release);
    },
  };
}
