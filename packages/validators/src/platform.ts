// The platform surface: its generated validators, typed by its generated `operations`.
import { createValidators } from "./core.js";
import type { operations } from "./generated/platform.types.js";
import * as generated from "./generated/platform.validators.js";

/** The OAuth platform API's operations, as openapi-typescript generates them from the description. */
export type { operations as PlatformOperations } from "./generated/platform.types.js";

/**
 * The OAuth platform API's validators: `validateRequest` and `validateResponse` (every problem at once, with readable messages),
 * the type guards `isRequest` and `isResponse`, and its `operationIds`.
 */
export const { operationIds, validateRequest, validateResponse, isRequest, isResponse } = createValidators<operations>("platform", generated);
