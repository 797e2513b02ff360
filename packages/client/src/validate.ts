// The response validator, as its own entry so that a client without it bundles none of the validators or ajv.
import { validateResponse } from "@content-scraper/validators/scraper";
import type { ResponseValidator } from "./options.js";

/**
 * Checks a response body against the scraper description (precompiled ajv, from `@content-scraper/validators`). Pass
 * it as `createScraperClient({ validateResponses })`: a body that drifts from the description then throws a
 * `ScraperResponseError` naming the path.
 */
export const validateResponses: ResponseValidator = validateResponse;
