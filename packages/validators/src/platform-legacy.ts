// The platform-legacy surface: its generated validators, typed by its generated `operations`.
import { createValidators } from "./core.js";
import type { operations } from "./generated/platform-legacy.types.js";
import * as generated from "./generated/platform-legacy.validators.js";

export type { operations as PlatformLegacyOperations } from "./generated/platform-legacy.types.js";

export const { operationIds, validateRequest, validateResponse, isRequest, isResponse } = createValidators<operations>("platform-legacy", generated);
