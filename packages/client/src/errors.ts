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

/** A success response whose body is not the JSON the description promises (invalid JSON, or drift caught by `validateResponses`). */
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
