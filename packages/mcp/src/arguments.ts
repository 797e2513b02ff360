import { McpInputError } from "./errors.js";

// Checks of the arguments of the server's own tools (quote, walk): each unusable one is an McpInputError naming it.

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A tool's arguments: an object (absent arguments are `{}`). */
export function argumentsObject(value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (!isObject(value)) throw new McpInputError("arguments", "the arguments must be an object.");
  return value;
}

/** An integer from `min` to `max`, or `fallback` when absent. */
export function integerArgument(field: string, value: unknown, fallback: number | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new McpInputError(field, `${field} must be an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? " up" : ` to ${max}`}.`);
  }
  return value;
}

/** A non-empty string, or `undefined` when absent. */
export function stringArgument(field: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") throw new McpInputError(field, `${field} must be a non-empty string.`);
  return value;
}

/** One of `choices`, naming them when it is not. */
export function choiceArgument(field: string, value: unknown, choices: readonly string[]): string {
  if (typeof value !== "string" || !choices.includes(value)) throw new McpInputError(field, `${field} must be one of ${choices.join(", ")}.`);
  return value;
}

/** An array of non-empty strings (at most `max`), or `undefined` when absent. */
export function stringsArgument(field: string, value: unknown, max: number): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0 || value.length > max || value.some((item) => typeof item !== "string" || item === "")) {
    throw new McpInputError(field, `${field} must be an array of 1 to ${max} non-empty strings.`);
  }
  return value as string[];
}
