import { type BodyTooLarge, ContentScraperError, describeRefusal, describeTooLarge, type RedirectRefusal } from "@content-scraper/runtime";

/**
 * Base class of every error `@content-scraper/connect` throws; it extends the SDK's `ContentScraperError` (`status`,
 * `requestId`). Never carries the key, even where an answer echoed it.
 */
export class ConnectError extends ContentScraperError {
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

/**
 * The call was given up before it completed: the caller's `signal` aborted (`cause` is its reason). `inFlight` when its
 * request was out: the service may still have acted on it.
 */
export class ConnectAbortError extends ConnectError {
  override name = "ConnectAbortError";
  constructor(
    readonly operation: string,
    readonly inFlight: boolean,
    message = `${operation} was aborted${inFlight ? " while its request was out" : " before its request was sent"}`,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The request did not complete within `timeoutMs`: an abort of the client's own. Not retried: the service may have acted on it. */
export class ConnectTimeoutError extends ConnectAbortError {
  override name = "ConnectTimeoutError";
  constructor(
    operation: string,
    readonly timeoutMs: number,
    inFlight = true,
  ) {
    super(operation, inFlight, `${operation} timed out after ${timeoutMs} ms`);
  }
}

/** The connection failed or the body was cut off. Not retried. */
export class ConnectConnectionError extends ConnectError {
  override name = "ConnectConnectionError";
  /** Whether the request never left this machine (a refused connection, a name that did not resolve): safe to send again. */
  readonly retryable: boolean;
  constructor(
    message: string,
    /** Whether the request may have reached the service. */
    readonly inFlight: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.retryable = !inFlight;
  }
}

/** A success whose body is not JSON, or a body too large to read. */
export class ConnectResponseError extends ConnectError {
  override name = "ConnectResponseError";
  constructor(
    message: string,
    readonly operation: string,
    status: number,
  ) {
    super(message, { status });
  }
  declare readonly status: number;
}

/** The body passed `maxResponseBytes` (its declared `content-length`, or its bytes on the wire or decoded while streaming) and was abandoned. */
export class ConnectResponseTooLargeError extends ConnectResponseError {
  override name = "ConnectResponseTooLargeError";
  constructor(
    operation: string,
    status: number,
    /** The limit, what was counted, and how many bytes. */
    readonly tooLarge: BodyTooLarge,
  ) {
    super(describeTooLarge(operation, tooLarge), operation, status);
  }
}

/**
 * The server redirected and the client refused to follow: to another origin (the description documents no redirect,
 * so the key never leaves the base URL's origin), more than `maxRedirects` times, or to a target it cannot read.
 * Names both origins only.
 */
export class ConnectRedirectError extends ConnectError {
  override name = "ConnectRedirectError";
  constructor(
    readonly operation: string,
    /** The redirect's status, both origins, and why it was refused. */
    readonly refusal: RedirectRefusal,
  ) {
    super(describeRefusal(operation, refusal));
  }
}

/**
 * The connect API answered with an error status. Its error bodies are not documented in v1.3.0, so `body` is the
 * parsed JSON (or `undefined`), uninterpreted. A 429 was retried after exactly `Retry-After` until `retry.maxRetries`
 * ran out, or returned at once when its wait was beyond `maxRetryWaitMs`.
 */
export class ConnectApiError extends ConnectError {
  override name = "ConnectApiError";
  /** A 429: send it again, after `retryAfterMs` when given. */
  readonly retryable: boolean;

  constructor(
    message: string,
    readonly operation: string,
    status: number,
    readonly body: unknown,
    readonly retryAfterMs: number | undefined,
  ) {
    super(message, { status });
    this.retryable = status === 429;
  }
  declare readonly status: number;
}
