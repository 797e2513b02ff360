// The platform surface: its generated validators, typed by its generated `operations`.
import { createValidators } from "./core.js";
import type { operations } from "./generated/platform.types.js";
import * as generated from "./generated/platform.validators.js";

export type { operations as PlatformOperations } from "./generated/platform.types.js";

export const { operationIds, validateRequest, validateResponse, isRequest, isResponse } = createValidators<operations>("platform", generated);
