/** Base class of every error the Redis stores throw. */
export class RedisStoreError extends Error {
  override name = "RedisStoreError";
}

/** An option of `createRedisStores` or an argument of a store method is unusable; `field` names it. */
export class RedisStoreInputError extends RedisStoreError {
  override name = "RedisStoreInputError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Redis did not answer (refused, closed, or slower than `commandTimeoutMs`). Nothing was decided: no token was taken
 * and no credit reserved, so the call that asked must not be sent. `cause` is the connection's own error.
 */
export class RedisStoreUnavailableError extends RedisStoreError {
  override name = "RedisStoreUnavailableError";
  readonly code = "REDIS_UNAVAILABLE";
  constructor(operation: string, cause: unknown) {
    super(`Redis is unreachable: ${operation} could not be decided (${describe(cause)})`, { cause });
  }
}

// The connection's error names a host and port at most (ioredis never puts a password in a message).
const describe = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause));
