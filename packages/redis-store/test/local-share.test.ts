import { expect, it } from "vitest";
import { LocalShare } from "../src/local-share.js";

const limit = { requestsPerMinute: 120, burstSeconds: 60 };

it("gives one process at most requestsPerMinute / workers in any minute, starting empty", () => {
  let now = 0;
  const share = new LocalShare(8, () => now);
  let taken = 0;
  // Asks every 10 ms for ten minutes of this clock.
  for (; now <= 600_000; now += 10) if (share.take("k", limit) === 0) taken++;
  // 120 / 8 = 15 a minute for ten minutes, and no burst at the start (the last token may round away).
  expect(taken).toBeLessThanOrEqual(150);
  expect(taken).toBeGreaterThanOrEqual(149);
});

it("answers the wait until its next token, and honours pause and correct", () => {
  let now = 0;
  const share = new LocalShare(2, () => now); // 60 a minute: one per second
  expect(share.take("k", limit)).toBe(1000);
  now = 1000;
  expect(share.take("k", limit)).toBe(0);
  share.pause("k", limit, 5000);
  expect(share.take("k", limit)).toBe(5000);
  now = 20_000; // 14 s after the pause: 14 tokens
  share.correct("k", limit, 2);
  expect([share.take("k", limit), share.take("k", limit), share.take("k", limit)]).toEqual([0, 0, 1000]);
  share.reset();
  expect(share.take("k", limit)).toBe(1000); // a new outage starts empty again
});
