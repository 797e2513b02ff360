// Every surface. The functions dispatch on the operationId over all of them; an operationId documented by more than one
// surface is ambiguous and throws (and is left out of the types): validate it through the surface's namespace or subpath.
// A new surface is an import, an entry in `surfaces` and one in `Operations`.
import { combineSurfaces } from "./core.js";
import * as connect from "./connect.js";
import * as platform from "./platform.js";
import * as platformLegacy from "./platform-legacy.js";
import * as scraper from "./scraper.js";
import type { MergeOperations } from "./types.js";

export { connect, platform, platformLegacy, scraper };
export type { BodyOptions, ValidationError, ValidationResult, Validators } from "./core.js";
export type { DocumentedStatus, MergeOperations, OperationId, RequestBody, ResponseBody } from "./types.js";

/** The operations of every surface, by operationId (ambiguous ones left out). */
export type Operations = MergeOperations<{
  scraper: scraper.ScraperOperations;
  platform: platform.PlatformOperations;
  "platform-legacy": platformLegacy.PlatformLegacyOperations;
  connect: connect.ConnectOperations;
}>;

const surfaces = { scraper, platform, "platform-legacy": platformLegacy, connect };

export const { operationIds, validateRequest, validateResponse, isRequest, isResponse } = combineSurfaces<Operations>(surfaces);
