// The scraper surface: its generated validators, typed by its generated `operations`.
import { createValidators } from "./core.js";
import type { operations } from "./generated/scraper.types.js";
import * as generated from "./generated/scraper.validators.js";
import type { DocumentedStatus, RequestBody, ResponseBody } from "./types.js";

export type { operations as ScraperOperations } from "./generated/scraper.types.js";
export type { BodyOptions, ValidationError, ValidationResult } from "./core.js";

export type OperationId = keyof operations & string;
export type Status<Id extends OperationId> = DocumentedStatus<operations, Id>;
export type Request<Id extends OperationId, M extends string = string> = RequestBody<operations, Id, M>;
export type Response<Id extends OperationId, S extends Status<Id> | number, M extends string = string> = ResponseBody<operations, Id, S, M>;

export const { operationIds, validateRequest, validateResponse, isRequest, isResponse } = createValidators<operations>("scraper", generated);
