import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openJournal } from "../src/export/journal.js";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** A journal file holding `lines`, opened. */
async function journal(lines: unknown[]) {
  const dir = await mkdtemp(join(tmpdir(), "cli-journal-"));
  dirs.push(dir);
  const path = join(dir, ".checkpoints.jsonl");
  await writeFile(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
  return openJournal(path);
}

const checkpoint = (creator: string, run: { id: string; start?: number; charged: number }) => ({
  creator,
  status: "running",
  profile: true,
  cursor: "c",
  pages: 1,
  posts: 1,
  creditsCharged: 1,
  bytes: 10,
  run,
});

describe("the journal's account of runs", () => {
  it("expects the last run's start less what it saw charged", async () => {
    const store = await journal([checkpoint("a", { id: "r1", start: 1000, charged: 4 }), checkpoint("b", { id: "r1", start: 1000, charged: 10 })]);
    expect(store.previous).toEqual({ expected: 990 });
    await store.close();
  });

  it("carries a run that was killed before it learnt its start back to the last run that did", async () => {
    const store = await journal([checkpoint("a", { id: "r1", start: 1000, charged: 10 }), checkpoint("a", { id: "r2", charged: 3 })]);
    expect(store.previous).toEqual({ expected: 987 });
    await store.close();
  });

  it("has nothing to reconcile after a run that ended with nothing in flight, and nothing to go on without a start", async () => {
    const ended = await journal([checkpoint("a", { id: "r1", start: 1000, charged: 10 }), { ended: "r1" }]);
    expect(ended.previous).toBeUndefined();
    await ended.close();
    const unknown = await journal([checkpoint("a", { id: "r1", charged: 2 })]);
    expect(unknown.previous).toEqual({ expected: undefined });
    await unknown.close();
  });

  it("sums what was recorded unseen, and counts what could not be", async () => {
    const store = await journal([{ unseen: 2, run: "r2" }, { unseen: null, run: "r3" }, { unseen: 1, run: "r4" }]);
    expect([store.unseenCredits, store.unreconciledRuns]).toEqual([3, 1]);
    await store.close();
  });
});
