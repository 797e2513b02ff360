// The scraper surface: its generated validators, typed by its generated `operations`.
import { createValidators } from "./core.js";
import type { operations } from "./generated/scraper.types.js";
import * as generated from "./generated/scraper.validators.js";
import type { DocumentedStatus, RequestBody, ResponseBody } from "./types.js";

/** The scraper API's operations, as openapi-typescript generates them from the description. */
export type { operations as ScraperOperations } from "./generated/scraper.types.js";
/** The validators' option and result types. */
export type { BodyOptions, ValidationError, ValidationResult } from "./core.js";

/** A scraper operationId. */
export type OperationId = keyof operations & string;
/** The statuses an operation documents (codes, ranges such as `5XX`, and `default`). */
export type Status<Id extends OperationId> = DocumentedStatus<operations, Id>;
/** The request body of an operation, in media type `M`. */
export type Request<Id extends OperationId, M extends string = string> = RequestBody<operations, Id, M>;
/** The response body of an operation for status `S`, in media type `M`. */
export type Response<Id extends OperationId, S extends Status<Id> | number, M extends string = string> = ResponseBody<operations, Id, S, M>;

/**
 * The scraper API's validators: `validateRequest` and `validateResponse` (every problem at once, with readable messages),
 * the type guards `isRequest` and `isResponse`, and its `operationIds`.
 */
export const { operationIds, validateRequest, validateResponse, isRequest, isResponse } = createValidators<operations>("scraper", generated);
