import { type BodyTooLarge, describeRefusal, describeTooLarge, type RedirectRefusal } from "@content-scraper/runtime";
import type { ErrorCode } from "./generated/scraper.operations.js";

/** Base class of every error the client throws. */
export class ScraperError extends Error {
  override name = "ScraperError";
}

/** An option of `createScraperClient` or an argument of a method is unusable; `field` names it. */
export class ScraperInputError extends ScraperError {
  override name = "ScraperInputError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The request did not complete within its timeout. It may still have run (and been billed) on the service. */
export class ScraperTimeoutError extends ScraperError {
  override name = "ScraperTimeoutError";
  constructor(
    readonly operationId: string | undefined,
    readonly timeoutMs: number,
  ) {
    super(`${operationId ?? "request"} timed out after ${timeoutMs} ms`);
  }
}

/** The connection failed or the body was cut off. Whether the service ran the request is unknown, so it is not retried. */
export class ScraperConnectionError extends ScraperError {
  override name = "ScraperConnectionError";
}

/**
 * A response whose body is not the JSON the description promises: invalid JSON, a success that is not the envelope
 * (`null`, an array, no `data` or `meta`), drift caught by `validateResponses`, or a body too large to read.
 */
export class ScraperResponseError extends ScraperError {
  override name = "ScraperResponseError";
  constructor(
    message: string,
    readonly operationId: string,
    readonly status: number,
    readonly problems: ReadonlyArray<{ path: string; message: string; keyword: string }> = [],
  ) {
    super(message);
  }
}

/**
 * The body passed `maxResponseBytes` (its declared `content-length`, or its decoded bytes while streaming) and was
 * abandoned. Not retried: whether the service billed the request is unknown.
 */
export class ScraperResponseTooLargeError extends ScraperResponseError {
  override name = "ScraperResponseTooLargeError";
  constructor(
    operationId: string,
    status: number,
    /** The limit, what was counted, and how many bytes. */
    readonly tooLarge: BodyTooLarge,
  ) {
    super(describeTooLarge(operationId, tooLarge), operationId, status);
  }
}

/**
 * The server redirected and the client refused to follow: to another origin (the description documents no redirect,
 * so the key never leaves the base URL's origin), more than `maxRedirects` times, or to a target it cannot read.
 * Names both origins, never a path or a query.
 */
export class ScraperRedirectError extends ScraperError {
  override name = "ScraperRedirectError";
  constructor(
    readonly operationId: string,
    /** The redirect's status, both origins, and why it was refused. */
    readonly refusal: RedirectRefusal,
  ) {
    super(describeRefusal(operationId, refusal));
  }
}

/** What a `ScraperApiError` is made of: the answer's status, code and fields, and what the call cost. */
export interface ScraperApiErrorFields {
  readonly operationId: string;
  readonly status: number;
  /** The service's error code; `undefined` for a non-JSON body such as the gateway's bare 504. */
  readonly code: ErrorCode | undefined;
  readonly message: string;
  readonly requestId: string | undefined;
  /** What the error cost, from `X-Scraper-Credits-Charged`. */
  readonly creditsCharged: number | undefined;
  readonly billed: boolean;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly field?: string | undefined;
  readonly reason?: string | undefined;
  readonly platform?: string | undefined;
  readonly identifier?: string | undefined;
}

/**
 * The service answered with an error. `billed` and `retryable` come from the description's billing and retry rules
 * for its code (or, without one, for its status).
 */
export class ScraperApiError extends ScraperError {
  override name = "ScraperApiError";
  readonly operationId: string;
  readonly status: number;
  readonly code: ErrorCode | undefined;
  readonly requestId: string | undefined;
  readonly creditsCharged: number | undefined;
  readonly billed: boolean;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly field: string | undefined;
  readonly reason: string | undefined;
  readonly platform: string | undefined;
  readonly identifier: string | undefined;

  constructor(fields: ScraperApiErrorFields) {
    super(fields.message);
    ({
      operationId: this.operationId,
      status: this.status,
      code: this.code,
      requestId: this.requestId,
      creditsCharged: this.creditsCharged,
      billed: this.billed,
      retryable: this.retryable,
      retryAfterMs: this.retryAfterMs,
      field: this.field,
      reason: this.reason,
      platform: this.platform,
      identifier: this.identifier,
    } = fields);
  }
}
