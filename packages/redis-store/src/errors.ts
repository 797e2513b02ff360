import { ContentScraperError } from "@content-scraper/runtime";

/** Base class of every error the Redis stores throw; it extends the SDK's `ContentScraperError`. */
export class RedisStoreError extends ContentScraperError {
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

/**
 * Redis (or whatever answers on its port: a proxy, another server) answered something no script of the stores returns:
 * nil where a wait or a figure is due, a negative, NaN, a string or an array of the wrong shape, or an error reply.
 * Nothing was decided in the caller's favour: no token is granted, no credit reserved, no figure believed.
 */
export class RedisStoreReplyError extends RedisStoreError {
  override name = "RedisStoreReplyError";
  readonly code = "REDIS_REPLY";
  constructor(operation: string, reply: unknown, options?: ErrorOptions) {
    super(`Redis answered ${operation} with ${describeReply(reply)}, which is not what the script returns: refused, nothing granted`, options);
  }
}

// The connection's error names a host and port at most (ioredis never puts a password in a message; the connection
// redacts one anyway).
const describe = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause));

/** A reply in a message: its type and at most 40 characters of it. */
function describeReply(reply: unknown): string {
  if (reply === null || reply === undefined) return "nil";
  if (reply instanceof Error) return `the error "${reply.message.slice(0, 80)}"`;
  const text = Array.isArray(reply) ? `an array of ${reply.length}` : typeof reply === "string" ? `the string ${JSON.stringify(reply.slice(0, 40))}` : String(reply);
  return text;
}
