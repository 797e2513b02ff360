export { createScraperClient, ScraperClient } from "./client.js";
export {
  ScraperApiError,
  type ScraperApiErrorFields,
  ScraperConnectionError,
  ScraperError,
  ScraperInputError,
  ScraperRedirectError,
  ScraperResponseError,
  ScraperResponseTooLargeError,
  ScraperTimeoutError,
} from "./errors.js";
export type { Logger } from "./logger.js";
export type { RateLimitState, ScraperMeta } from "./meta.js";
export type { ScraperClientOptions } from "./options.js";
export type { ErrorCode, OperationId } from "./rules.js";
export type * from "./types.js";
export { postKey, type WalkOptions } from "./walk.js";
export type { paths, components, operations } from "./generated/scraper.types.js";
