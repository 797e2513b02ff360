import { type BodyTooLarge, ContentScraperError, describeRefusal, describeTooLarge, type RedirectRefusal } from "@content-scraper/runtime";
import type { ErrorCode } from "./generated/scraper.operations.js";

/**
 * Base class of every error the client throws; it extends the SDK's `ContentScraperError` (`status`, `requestId`),
 * and no credential of the client is in its message, fields or `cause`.
 */
export class ScraperError extends ContentScraperError {
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

/** The factory the runtime's checks report an unusable option or argument with. */
export const inputError = (field: string, message: string): ScraperInputError => new ScraperInputError(field, message);

/**
 * The call was given up before it completed: the caller's `signal` aborted (`cause` is its reason), while the call
 * waited for pacing, for the budget, for an answer, for its body or before a retry. Once sent, the request may
 * still have run (and been billed) on the service.
 */
export class ScraperAbortError extends ScraperError {
  override name = "ScraperAbortError";
  constructor(
    readonly operationId: string | undefined,
    /** Whether a request was out when it was given up: the service may have run, and billed, it. */
    readonly inFlight: boolean,
    message = `${operationId ?? "request"} was aborted${inFlight ? " while its request was out" : " before its request was sent"}`,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The call did not complete within its timeout, which counts from its wait for pacing: an abort of the client's own.
 * `inFlight` when its request was out (it may still have run, and been billed), else it timed out in the pacer and was
 * never sent.
 */
export class ScraperTimeoutError extends ScraperAbortError {
  override name = "ScraperTimeoutError";
  constructor(
    operationId: string | undefined,
    readonly timeoutMs: number,
    inFlight = true,
  ) {
    super(operationId, inFlight, `${operationId ?? "request"} timed out after ${timeoutMs} ms${inFlight ? "" : " while waiting for pacing; it was not sent"}`);
  }
}

/**
 * The store behind the client's pacing (`rateLimit.store`) or budget (`budget.store`) failed, e.g. a Redis store out
 * of reach: the call was not sent (or, when settling, its charge may not be in the store). `cause` is the store's error.
 */
export class ScraperStoreError extends ScraperError {
  override name = "ScraperStoreError";
  constructor(
    /** Which store: `rateLimit` or `budget`. */
    readonly store: "rateLimit" | "budget",
    readonly operationId: string,
    cause: unknown,
  ) {
    super(`${operationId}: the ${store} store failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** What the client's credit budget held when it refused a call. */
export interface BudgetFigures {
  readonly maxCredits: number;
  /** Credits charged so far by calls under the budget. */
  readonly spent: number;
  /** Credits held for calls in flight. */
  readonly reserved: number;
  /** What the refused call would have reserved: its operation's price in the description. */
  readonly needed: number;
}

/** The client's `budget` refused a call before sending it: its price would take spent plus reserved past `maxCredits`. */
export class ScraperBudgetError extends ScraperError {
  override name = "ScraperBudgetError";
  constructor(
    readonly operationId: string,
    readonly budget: BudgetFigures,
  ) {
    super(
      `${operationId} was not sent: it costs ${budget.needed} credit(s), and the budget of ${budget.maxCredits} has ${budget.spent} spent and ${budget.reserved} reserved`,
    );
  }
}

/**
 * The connection failed or the body was cut off. Not retried by the client. `inFlight` false: the request never left
 * this machine (a refused connection, a name that did not resolve), so nothing was billed and it is `retryable`;
 * otherwise whether the service ran it is unknown.
 */
export class ScraperConnectionError extends ScraperError {
  override name = "ScraperConnectionError";
  readonly retryable: boolean;
  constructor(
    message: string,
    readonly inFlight: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.retryable = !inFlight;
  }
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
    status: number,
    readonly problems: ReadonlyArray<{ path: string; message: string; keyword: string }> = [],
  ) {
    super(message, { status });
  }
  declare readonly status: number;
}

/**
 * The body passed `maxResponseBytes` (its declared `content-length`, or its bytes on the wire or decoded while streaming) and was
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

/**
 * Codes the client gives answers that carry none: `GATEWAY_TIMEOUT` is the gateway's bare `text/plain` 504 (a
 * request past the server's ceiling of about 120 s; refunded). Not the service's codes: `codeSource` is `"client"`.
 */
export type ClientErrorCode = "GATEWAY_TIMEOUT";

/** What a `ScraperApiError` is made of: the answer's status, code and fields, and what the call cost. */
export interface ScraperApiErrorFields {
  readonly operationId: string;
  readonly status: number;
  /** The service's error code, `GATEWAY_TIMEOUT` for the gateway's bare 504, `undefined` for any other body without one. */
  readonly code: ErrorCode | ClientErrorCode | undefined;
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
  declare readonly status: number;
  readonly code: ErrorCode | ClientErrorCode | undefined;
  /** Who named `code`: the service (its error body), or the client (`ClientErrorCode`); `undefined` without a code. */
  readonly codeSource: "service" | "client" | undefined;
  /** The service's own words (its `message`), or the client's description of a body without one. */
  readonly serviceMessage: string;
  readonly creditsCharged: number | undefined;
  readonly billed: boolean;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly field: string | undefined;
  readonly reason: string | undefined;
  readonly platform: string | undefined;
  readonly identifier: string | undefined;

  constructor(fields: ScraperApiErrorFields) {
    // Status, code and request id in the message itself, so that String(error) and every log line carry them.
    const tags = [fields.code, fields.requestId && `request ${fields.requestId}`].filter(Boolean).join(", ");
    super(`${fields.operationId} answered ${fields.status}${tags ? ` (${tags})` : ""}: ${fields.message}`, { status: fields.status, requestId: fields.requestId });
    this.serviceMessage = fields.message;
    this.codeSource = fields.code === undefined ? undefined : fields.code === "GATEWAY_TIMEOUT" ? "client" : "service";
    ({
      operationId: this.operationId,
      code: this.code,
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
