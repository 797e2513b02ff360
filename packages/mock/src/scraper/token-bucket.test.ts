import { expect, it } from "vitest";
import { TokenBucket } from "./token-bucket.js";

it("spends a minute of allowance at once, then refills continuously", () => {
  const bucket = new TokenBucket(120, 60, 0);
  for (let index = 0; index < 120; index++) expect(bucket.take(0)).toBe(true);
  expect(bucket.take(0)).toBe(false);
  expect(bucket.state(0)).toEqual({ limit: 120, remaining: 0, reset: 60, retryAfter: 1 });
  expect(bucket.take(499)).toBe(false); // 120 per minute: one token every 500 ms
  expect(bucket.take(500)).toBe(true);
  expect(bucket.state(30_500).remaining).toBe(60);
  expect(bucket.state(600_000).remaining).toBe(120);
});

it("gives a token back, never beyond the burst", () => {
  const bucket = new TokenBucket(3, 60, 0);
  bucket.take(0);
  bucket.giveBack(0);
  bucket.giveBack(0);
  expect(bucket.state(0).remaining).toBe(3);
});

it("says how long until the next token at a slow rate", () => {
  const bucket = new TokenBucket(6, 60, 0);
  for (let index = 0; index < 6; index++) bucket.take(0);
  expect(bucket.state(0).retryAfter).toBe(10);
  expect(bucket.state(4_000).retryAfter).toBe(6);
});
