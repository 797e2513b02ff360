// Every surface. The functions dispatch on the operationId over all of them; an operationId documented by more than one
// surface is ambiguous and throws (and is left out of the types): validate it through the surface's namespace or subpath.
// A new surface is an import, an entry in `surfaces` and one in `Operations`.
import { combineSurfaces } from "./core.js";
import * as scraper from "./scraper.js";
import type { MergeOperations } from "./types.js";

export { scraper };
export type { BodyOptions, ValidationError, ValidationResult, Validators } from "./core.js";
export type { DocumentedStatus, MergeOperations, OperationId, RequestBody, ResponseBody } from "./types.js";

/** The operations of every surface, by operationId (ambiguous ones left out). */
export type Operations = MergeOperations<{ scraper: scraper.ScraperOperations }>;

const surfaces = { scraper };

export const { operationIds, validateRequest, validateResponse, isRequest, isResponse } = combineSurfaces<Operations>(surfaces);
