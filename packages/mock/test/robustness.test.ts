// Malformed, mistyped and random bodies, and concurrent load, get the documented envelopes: never a crash, never a 5xx.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningMock } from "../src/index.js";
import { call, freshKey, operationIds, operations, requestExample, start } from "./support.js";

const credits = 50_000;
let mock: RunningMock;
beforeAll(async () => {
  mock = await start({ credits });
});
afterAll(() => mock.close());

// A small seeded generator (mulberry32), so a failure can be replayed.
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function value(next: () => number, depth = 0): unknown {
  const kind = Math.floor(next() * (depth > 3 ? 5 : 7));
  if (kind === 0) return null;
  if (kind === 1) return next() < 0.5;
  if (kind === 2) return Math.floor((next() - 0.5) * 1e12) / (next() < 0.5 ? 1 : 7);
  if (kind === 3) return String.fromCharCode(...Array.from({ length: Math.floor(next() * 20) }, () => Math.floor(next() * 0xd7ff)));
  if (kind === 4) return ["creator", "@creator", "", " ", "0", "https://x.example/p/1", "a".repeat(101)][Math.floor(next() * 7)];
  if (kind === 5) return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
  const fields = ["username", "url", "cursor", "handle", "unique_id", "hashtag", "query", "include_transcript", "contentType", "x"];
  return Object.fromEntries(Array.from({ length: Math.floor(next() * 5) }, () => [fields[Math.floor(next() * fields.length)], value(next, depth + 1)]));
}

it("answers 600 random bodies across every operation with documented answers", async () => {
  const next = random(20_251_122);
  const answers = await Promise.all(
    Array.from({ length: 600 }, (_, index) => {
      const id = operationIds[index % operationIds.length] as (typeof operationIds)[number];
      return call(mock, operations[id].path, value(next), { key: freshKey("fuzz") });
    }),
  );
  for (const answer of answers) expect([200, 400]).toContain(answer.status);
  expect(answers.some((answer) => answer.status === 200)).toBe(true);
});

it.each([
  ["truncated JSON", '{"username": "crea'],
  ["a JSON string", '"creator"'],
  ["bytes that are not UTF-8", Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x80]).toString("latin1")],
  ["deeply nested arrays", `${"[".repeat(100_000)}${"]".repeat(100_000)}`.slice(0, 30_000)],
  ["a huge number", '{"username": 1e999}'],
  ["a prototype key", '{"__proto__": {"username": "creator"}, "constructor": 1}'],
])("answers %s with 400 INVALID_INPUT", async (_name, body) => {
  const answer = await call(mock, "/scrape/shortvideo/profile", body, { raw: true });
  expect(answer.status).toBe(400);
  expect(answer.body.error).toBe("INVALID_INPUT");
});

// 1 000 validated answers take about 30 s on a busy 2-core machine: the bound is generous, not a timing.
it("answers 1 000 concurrent requests on many keys, each with its own credits and bucket", { timeout: 180_000 }, async () => {
  const keys = Array.from({ length: 10 }, () => freshKey("load"));
  const answers = await Promise.all(
    Array.from({ length: 1000 }, (_, index) => {
      const id = operationIds[index % operationIds.length] as (typeof operationIds)[number];
      return call(mock, operations[id].path, requestExample(id), { key: keys[index % keys.length] as string });
    }),
  );
  // Each key sends 100 requests, within its burst of 120: all pass, and each key's ledger adds up.
  expect(answers.every((answer) => answer.status === 200)).toBe(true);
  const spent = answers.filter((_, index) => index % keys.length === 0).reduce((sum, answer) => sum + answer.body.meta.credits_charged, 0);
  const lowest = Math.min(...answers.filter((_, index) => index % keys.length === 0).map((answer) => answer.body.meta.credits_remaining));
  expect(lowest).toBe(credits - spent);
});
