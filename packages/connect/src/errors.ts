/** Base class of every error `@content-scraper/connect` throws. Never carries the key. */
export class ConnectError extends Error {
  override name = "ConnectError";
}

/** An option or argument is unusable; `field` names it. Nothing was sent. */
export class ConnectInputError extends ConnectError {
  override name = "ConnectInputError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The request did not complete within `timeoutMs`. It is not retried: the service may have acted on it. */
export class ConnectTimeoutError extends ConnectError {
  override name = "ConnectTimeoutError";
  constructor(
    readonly operation: string,
    readonly timeoutMs: number,
  ) {
    super(`${operation} timed out after ${timeoutMs} ms`);
  }
}

/** The connection failed or the body was cut off. Not retried. */
export class ConnectConnectionError extends ConnectError {
  override name = "ConnectConnectionError";
}

/** A success whose body is not JSON. */
export class ConnectResponseError extends ConnectError {
  override name = "ConnectResponseError";
  constructor(
    message: string,
    readonly operation: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * The connect API answered with an error status. Its error bodies are not documented in v1.3.0, so `body` is the
 * parsed JSON (or `undefined`), uninterpreted. A 429 was retried after exactly `Retry-After` until `retry.maxRetries`
 * ran out.
 */
export class ConnectApiError extends ConnectError {
  override name = "ConnectApiError";
  constructor(
    message: string,
    readonly operation: string,
    readonly status: number,
    readonly body: unknown,
    readonly retryAfterMs: number | undefined,
  ) {
    super(message);
  }
}
