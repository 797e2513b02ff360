// Every surface. The functions dispatch on the operationId over all of them; an operationId documented by more than one
// surface is ambiguous and throws (and is left out of the types): validate it through the surface's namespace or subpath.
// A new surface is an import, an entry in `surfaces` and one in `Operations`.
import { combineSurfaces } from "./core.js";
import * as connect from "./connect.js";
import * as platform from "./platform.js";
import * as platformLegacy from "./platform-legacy.js";
import * as scraper from "./scraper.js";
import type { MergeOperations } from "./types.js";

/** Each surface's own validators, as its subpath exports them (`@content-scraper/validators/scraper`, …). */
export { connect, platform, platformLegacy, scraper };
export type { BodyOptions, ValidationError, ValidationResult, Validators } from "./core.js";
/** Types over any surface's operations: operationIds, documented statuses, request and response bodies. */
export type { DocumentedStatus, MergeOperations, OperationId, RequestBody, ResponseBody } from "./types.js";

/** The operations of every surface, by operationId (ambiguous ones left out). */
export type Operations = MergeOperations<{
  scraper: scraper.ScraperOperations;
  platform: platform.PlatformOperations;
  "platform-legacy": platformLegacy.PlatformLegacyOperations;
  connect: connect.ConnectOperations;
}>;

const surfaces = { scraper, platform, "platform-legacy": platformLegacy, connect };

/**
 * Every surface's validators at once, dispatching on the operationId: `validateRequest`, `validateResponse`, the type
 * guards `isRequest` and `isResponse`, and all `operationIds`. An operationId two surfaces share throws: use its
 * surface's namespace.
 */
export const { operationIds, validateRequest, validateResponse, isRequest, isResponse } = combineSurfaces<Operations>(surfaces);
