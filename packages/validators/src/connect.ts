// The connect surface: its generated validators, typed by its generated `operations`.
import { createValidators } from "./core.js";
import type { operations } from "./generated/connect.types.js";
import * as generated from "./generated/connect.validators.js";

/** The connect API's operations, as openapi-typescript generates them from the description. */
export type { operations as ConnectOperations } from "./generated/connect.types.js";

/**
 * The connect API's validators: `validateRequest` and `validateResponse` (every problem at once, with readable messages),
 * the type guards `isRequest` and `isResponse`, and its `operationIds`.
 */
export const { operationIds, validateRequest, validateResponse, isRequest, isResponse } = createValidators<operations>("connect", generated);
