// `weigh` never counts an entry under what V8 holds for it, whatever its shape, so that a store's budget in bytes bounds
// the heap it takes: measured in a process of its own, after a collection (test/fixtures/weigh-heap.mjs).
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

it("counts every kind of entry the stores keep at no less than the heap it takes", { timeout: 120_000 }, async () => {
  const fixture = fileURLToPath(new URL("./fixtures/weigh-heap.mjs", import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ["--expose-gc", fixture], { maxBuffer: 1024 * 1024 });
  const kinds = Object.entries(JSON.parse(stdout) as Record<string, { counted: number; held: number }>);
  expect(kinds.length).toBeGreaterThan(10);
  for (const [kind, { counted, held }] of kinds) expect(counted, kind).toBeGreaterThanOrEqual(held);
});
