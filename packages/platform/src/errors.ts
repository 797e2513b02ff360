import { type BodyTooLarge, ContentScraperError, describeRefusal, describeTooLarge, type RedirectRefusal } from "@content-scraper/runtime";
import type { BearerChallenge } from "./challenge.js";
import type { ErrorCode } from "./generated/platform.operations.js";
import type { RateLimitState } from "./meta.js";

/**
 * Base class of every error `@content-scraper/platform` throws; it extends the SDK's `ContentScraperError` (`status`,
 * `requestId`). Never carries a token, a key or a client secret: each is redacted from what an answer echoed.
 */
export class PlatformError extends ContentScraperError {
  override name = "PlatformError";
}

/** An option or argument is unusable; `field` names it. Nothing was sent. */
export class PlatformInputError extends PlatformError {
  override name = "PlatformInputError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The call was given up before it completed: the caller's `signal` aborted (`cause` is its reason). `inFlight` when its
 * request was out: the service may still have acted on it, and a write can be sent again safely with the same
 * `idempotencyKey`.
 */
export class PlatformAbortError extends PlatformError {
  override name = "PlatformAbortError";
  constructor(
    readonly operation: string,
    readonly inFlight: boolean,
    readonly idempotencyKey: string | undefined,
    message = `${operation} was aborted${inFlight ? " while its request was out" : " before its request was sent"}`,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * The request did not complete within `timeoutMs`: an abort of the client's own. The service may still have acted on
 * it: a write can be sent again safely with the same `idempotencyKey`.
 */
export class PlatformTimeoutError extends PlatformAbortError {
  override name = "PlatformTimeoutError";
  constructor(
    operation: string,
    readonly timeoutMs: number,
    idempotencyKey: string | undefined,
    inFlight = true,
  ) {
    super(operation, inFlight, idempotencyKey, `${operation} timed out after ${timeoutMs} ms`);
  }
}

/** The connection failed or the body was cut off. Not retried; a write can be sent again with the same `idempotencyKey`. */
export class PlatformConnectionError extends PlatformError {
  override name = "PlatformConnectionError";
  /** Whether the request never left this machine (a refused connection, a name that did not resolve): safe to send again. */
  readonly retryable: boolean;
  constructor(
    message: string,
    readonly idempotencyKey: string | undefined,
    /** Whether the request may have reached the service. */
    readonly inFlight: boolean,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.retryable = !inFlight;
  }
}

/**
 * A response whose body is not what the description promises (not JSON, not a list page) or is too large to read.
 * A write may have happened: see `idempotencyKey`.
 */
export class PlatformResponseError extends PlatformError {
  override name = "PlatformResponseError";
  constructor(
    message: string,
    readonly operation: string,
    status: number,
    readonly idempotencyKey: string | undefined,
  ) {
    super(message, { status });
  }
  declare readonly status: number;
}

/**
 * The body passed `maxResponseBytes` (its declared `content-length`, or its bytes on the wire or decoded while streaming) and was
 * abandoned. Not retried; a write can be sent again with the same `idempotencyKey`.
 */
export class PlatformResponseTooLargeError extends PlatformResponseError {
  override name = "PlatformResponseTooLargeError";
  constructor(
    operation: string,
    status: number,
    /** The limit, what was counted, and how many bytes. */
    readonly tooLarge: BodyTooLarge,
    idempotencyKey: string | undefined,
  ) {
    super(describeTooLarge(operation, tooLarge), operation, status, idempotencyKey);
  }
}

/**
 * The server redirected and the client refused to follow: to another origin (the descriptions document no redirect,
 * so a token, a key or a client secret never leaves the origin it was meant for: the base URL's, or for the OAuth
 * helpers the endpoint's), more than `maxRedirects` times, or to a target it cannot read. Names both origins only.
 */
export class PlatformRedirectError extends PlatformError {
  override name = "PlatformRedirectError";
  constructor(
    readonly operation: string,
    /** The redirect's status, both origins, and why it was refused. */
    readonly refusal: RedirectRefusal,
    /** The `Idempotency-Key` of a write: nothing reached the other origin, but the first may have acted on it. */
    readonly idempotencyKey: string | undefined,
  ) {
    super(describeRefusal(operation, refusal));
  }
}

/** What a `PlatformApiError` is made of: the status, the code, the parsed challenge and the call's idempotency key. */
export interface PlatformApiErrorFields {
  /** The operationId, or `METHOD /path` for a path the description does not list. */
  readonly operation: string;
  readonly status: number;
  /** `error.code` of the body; `undefined` when the body is not the resource error envelope. */
  readonly code: ErrorCode | undefined;
  readonly message: string;
  readonly requestId: string | undefined;
  /** `error.meta`: optional structured context, e.g. the missing scope. Its fields are not documented in v1.3.0. */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** `Retry-After` (429), in milliseconds, when it was sent (read as the runtime's `retryAfterMs` says). */
  readonly retryAfterMs: number | undefined;
  /** The `WWW-Authenticate: Bearer` challenge of `unauthorized` (401) and `insufficient_scope` (403); `forbidden` has none. */
  readonly challenge: BearerChallenge | undefined;
  /** The `Idempotency-Key` the request was sent with (writes only): send the same key to retry without a duplicate. */
  readonly idempotencyKey: string | undefined;
}

/**
 * The OAuth platform API answered `{ error: { code, message, requestId, meta? } }`. Branch on `code`, never on
 * `message`: `unauthorized` → re-authenticate, `insufficient_scope` → re-authorize with `challenge.scope`,
 * `rate_limited` → retried after `Retry-After` until `retry.maxRetries` ran out, or at once when the wait was beyond
 * `maxRetryWaitMs` (then `retryable` and `retryAfterMs` say when to try again).
 */
export class PlatformApiError extends PlatformError {
  override name = "PlatformApiError";
  readonly operation: string;
  declare readonly status: number;
  readonly code: ErrorCode | undefined;
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  readonly retryAfterMs: number | undefined;
  /** A 429, the one answer these surfaces document as worth sending again (after `retryAfterMs`, when given). */
  readonly retryable: boolean;
  readonly challenge: BearerChallenge | undefined;
  readonly idempotencyKey: string | undefined;

  constructor(fields: PlatformApiErrorFields) {
    super(fields.message, { status: fields.status, requestId: fields.requestId });
    this.retryable = fields.status === 429;
    ({
      operation: this.operation,
      code: this.code,
      meta: this.meta,
      retryAfterMs: this.retryAfterMs,
      challenge: this.challenge,
      idempotencyKey: this.idempotencyKey,
    } = fields);
  }
}

/** 402 `subscription_required`: the company's subscription is inactive. OAuth registration, consent and tokens still work. */
export class SubscriptionRequiredError extends PlatformApiError {
  override name = "SubscriptionRequiredError";
  declare readonly code: "subscription_required";
}

/**
 * An OAuth protocol endpoint answered an RFC 6749 error `{ error, error_description }` (`invalid_grant`,
 * `invalid_client`, `invalid_scope`, `unsupported_grant_type`, `temporarily_unavailable`, …), or the authorization
 * redirect carried `error`. The complete list of values is not documented in v1.3.0, so `error` is a string.
 */
export class OAuthProtocolError extends PlatformError {
  override name = "OAuthProtocolError";
  /** A 429 (`temporarily_unavailable`): send it again, after `retryAfterMs` when given. */
  readonly retryable: boolean;

  constructor(
    readonly error: string,
    readonly errorDescription: string | undefined,
    /** The HTTP status; `undefined` for an error carried by the authorization redirect. */
    status: number | undefined,
    readonly challenge: BearerChallenge | undefined = undefined,
    readonly retryAfterMs: number | undefined = undefined,
  ) {
    super(errorDescription ? `${error}: ${errorDescription}` : error, { status });
    this.retryable = status === 429;
  }
}

/**
 * An OAuth answer failed a check on this side: a wrong `iss` or `state` on the redirect, an issuer that does not match
 * the discovery document, a token response that is not conform. `code` is oauth4webapi's (`OAUTH_INVALID_RESPONSE`, …).
 */
export class OAuthValidationError extends PlatformError {
  override name = "OAuthValidationError";
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** What a `LegacyApiError` is made of: the status, the error string and, where the body has one, the code. */
export interface LegacyApiErrorFields {
  readonly operation: string;
  readonly status: number;
  /** The body's `error` text (the key-based API puts its message there). */
  readonly message: string;
  /** The body's `code`, on some errors (e.g. `LEAD_NOT_FOUND`); the complete list is not documented in v1.3.0. */
  readonly code: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly rateLimit: RateLimitState;
}

/**
 * The deprecated key-based API answered `{ error, code? }`: 400 invalid request, 401 invalid or missing key,
 * 402 no active subscription (`LegacySubscriptionRequiredError`), 403 a restricted endpoint (jobs, applicants, payout
 * execution need an allowlisted partner account) or cross-company access, 404 not found, 429 rate limited.
 * @deprecated The key-based platform API is deprecated: use `createPlatformClient` and `PlatformApiError`.
 */
export class LegacyApiError extends PlatformError {
  override name = "LegacyApiError";
  readonly operation: string;
  declare readonly status: number;
  readonly code: string | undefined;
  readonly retryAfterMs: number | undefined;
  /** A 429: send it again, after `retryAfterMs` when given. */
  readonly retryable: boolean;
  readonly rateLimit: RateLimitState;

  constructor(fields: LegacyApiErrorFields) {
    super(fields.message, { status: fields.status });
    this.retryable = fields.status === 429;
    ({ operation: this.operation, code: this.code, retryAfterMs: this.retryAfterMs, rateLimit: this.rateLimit } = fields);
  }
}

/**
 * 402 from the key-based API: it requires an active subscription.
 * @deprecated The key-based platform API is deprecated: use `createPlatformClient` and `SubscriptionRequiredError`.
 */
export class LegacySubscriptionRequiredError extends LegacyApiError {
  override name = "LegacySubscriptionRequiredError";
}
