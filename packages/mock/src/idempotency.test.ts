import { expect, it } from "vitest";
import { SandboxClock } from "./control/clock.js";
import { IdempotencyStore } from "./idempotency.js";
import { json } from "./http.js";
import { stateLimits } from "./limits.js";

it("refuses a new key once full of records not yet expired, and takes one again when the oldest expires", () => {
  const clock = new SandboxClock();
  const store = new IdempotencyStore(86_400_000, clock);
  // Answers of about 1 MB as counted: the budget holds a few dozen.
  const response = json(200, { padding: "x".repeat(512 * 1024) });
  let stored = 0;
  while (store.store(`key-${stored}`, "token", "fingerprint", response)) stored++;
  expect(stored).toBe(Math.floor(stateLimits.idempotency / (1024 * 1024)) - 1);
  // Nothing was forgotten: every key still replays.
  expect(store.find("key-0", "fingerprint")?.kind).toBe("replay");
  expect(store.secondsUntilRoom()).toBe(86_400);
  clock.advance(86_400_000 - 1000);
  expect(store.secondsUntilRoom()).toBe(1);
  expect(store.store("late", "token", "fingerprint", response)).toBe(false);
  clock.advance(1000);
  expect(store.store("late", "token", "fingerprint", response)).toBe(true);
  expect(store.find("late", "fingerprint")?.kind).toBe("replay");
});
