import { expect, it } from "vitest";
import { TokenBucket } from "./token-bucket.js";

/** A bucket on a clock the test sets. */
function bucket(requestsPerMinute: number) {
  const clock = { now: 0 };
  return { clock, bucket: new TokenBucket(requestsPerMinute, 60, () => clock.now) };
}

it("spends a minute of allowance at once, then refills continuously", () => {
  const { clock, bucket: tokens } = bucket(120);
  for (let index = 0; index < 120; index++) expect(tokens.take()).toBe(true);
  expect(tokens.take()).toBe(false);
  expect(tokens.state()).toEqual({ limit: 120, remaining: 0, reset: 60, retryAfter: 1 });
  clock.now = 499;
  expect(tokens.take()).toBe(false); // 120 per minute: one token every 500 ms
  clock.now = 500;
  expect(tokens.take()).toBe(true);
  clock.now = 30_500;
  expect(tokens.state().remaining).toBe(60);
  clock.now = 600_000;
  expect(tokens.state().remaining).toBe(120);
});

it("gives a token back, never beyond the burst", () => {
  const { bucket: tokens } = bucket(3);
  tokens.take();
  tokens.giveBack();
  tokens.giveBack();
  expect(tokens.state().remaining).toBe(3);
});

it("says how long until the next token at a slow rate", () => {
  const { clock, bucket: tokens } = bucket(6);
  for (let index = 0; index < 6; index++) tokens.take();
  expect(tokens.state().retryAfter).toBe(10);
  clock.now = 4_000;
  expect(tokens.state().retryAfter).toBe(6);
});

it("drains at once, and refills from there", () => {
  const { clock, bucket: tokens } = bucket(120);
  tokens.drain();
  expect(tokens.state()).toMatchObject({ remaining: 0, retryAfter: 1 });
  clock.now = 1_000;
  expect(tokens.state().remaining).toBe(2);
});

it("refills nothing when the clock goes back", () => {
  const { clock, bucket: tokens } = bucket(120);
  clock.now = 10_000;
  tokens.drain();
  clock.now = 0;
  expect(tokens.state().remaining).toBe(0);
});
