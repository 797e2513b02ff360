// The platform-legacy surface: its generated validators, typed by its generated `operations`.
import { createValidators } from "./core.js";
import type { operations } from "./generated/platform-legacy.types.js";
import * as generated from "./generated/platform-legacy.validators.js";

/** The key-based platform API's operations, as openapi-typescript generates them from the description. */
export type { operations as PlatformLegacyOperations } from "./generated/platform-legacy.types.js";

/**
 * The key-based platform API's validators: `validateRequest` and `validateResponse` (every problem at once, with readable messages),
 * the type guards `isRequest` and `isResponse`, and its `operationIds`.
 */
export const { operationIds, validateRequest, validateResponse, isRequest, isResponse } = createValidators<operations>("platform-legacy", generated);
