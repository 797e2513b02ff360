// The connect surface: its generated validators, typed by its generated `operations`.
import { createValidators } from "./core.js";
import type { operations } from "./generated/connect.types.js";
import * as generated from "./generated/connect.validators.js";

export type { operations as ConnectOperations } from "./generated/connect.types.js";

export const { operationIds, validateRequest, validateResponse, isRequest, isResponse } = createValidators<operations>("connect", generated);
