export { type BearerChallenge, bearerChallenge, type Challenge, parseChallenges } from "./challenge.js";
export { createPlatformClient, PlatformClient, type PlatformClientOptions, platformApiError } from "./client.js";
export {
  LegacyApiError,
  type LegacyApiErrorFields,
  LegacySubscriptionRequiredError,
  OAuthProtocolError,
  OAuthValidationError,
  PlatformApiError,
  type PlatformApiErrorFields,
  PlatformConnectionError,
  PlatformError,
  PlatformInputError,
  PlatformRedirectError,
  PlatformResponseError,
  PlatformResponseTooLargeError,
  PlatformTimeoutError,
  SubscriptionRequiredError,
} from "./errors.js";
export type { ErrorCode, OperationId } from "./generated/platform.operations.js";
export type { components, operations, paths } from "./generated/platform.types.js";
export { createLegacyClient, LegacyClient, type LegacyClientOptions, type LegacyPostMetricsHistory, legacyApiError } from "./legacy.js";
export type { LegacyMeta, PlatformMeta, PlatformResult, RateLimitState } from "./meta.js";
export { type CursorPage, cursorItems, type PageList, pageItems } from "./paging.js";
export type { RequestOptions } from "./transport.js";
export type * from "./types.js";
export type { Logger, TransportOptions } from "@content-scraper/runtime";
