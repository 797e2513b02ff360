import { checkNumber } from "@content-scraper/runtime";
import { RedisStoreInputError } from "./errors.js";

/** The factory the runtime's checks report with: every bad input is a `RedisStoreInputError` naming its field. */
export const inputError = (field: string, message: string) => new RedisStoreInputError(field, message);

/** A number that must be there: finite, non-negative (or positive), or a `RedisStoreInputError` naming `field`. */
export function requiredNumber(field: string, value: unknown, rules: { positive?: boolean; integer?: boolean } = {}): number {
  if (value === undefined) throw inputError(field, `${field} is missing.`);
  return checkNumber(field, value as number, 0, rules, inputError);
}
