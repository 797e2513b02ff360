import { expect, it } from "vitest";
import { requestId } from "../request-id.js";
import { SandboxClock } from "./clock.js";

it("reads whole milliseconds after an advance by a fraction of one, and keeps the fraction", () => {
  const clock = new SandboxClock();
  clock.advance(0.4);
  expect(Number.isInteger(clock.now())).toBe(true);
  clock.advance(0.7);
  expect(Number.isInteger(clock.now())).toBe(true);
  expect(clock.advancedMs).toBeCloseTo(1.1, 9);
  // Crockford's base32, 10 characters of time and 16 of randomness, as the service's ids.
  expect(requestId(clock.now())).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
});
