// The checkpoint journal on disk: a save appends one line, the last whole line is the checkpoint, a line cut short by
// a kill is ignored (and cut off by the next save), a long journal is written anew, and the one-line checkpoint file
// of the version before journals resumes as it is.
import { appendFile, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Redactor } from "@content-scraper/runtime";
import { afterAll, describe, expect, it } from "vitest";
import { creatorOf } from "../src/creators.js";
import { type Checkpoint, freshCheckpoint } from "../src/export/checkpoint.js";
import { compactAtBytes, diskCheckpoints } from "../src/export/checkpoints.js";
import { checkpointsFolder, OutputFolder } from "../src/export/folder.js";
import { tempDir } from "./harness.js";

const dirs: Array<Awaited<ReturnType<typeof tempDir>>> = [];
afterAll(async () => {
  for (const dir of dirs) await dir.remove();
});

const creator = { ...creatorOf("maya.bakes"), names: ["maya.bakes"] };

async function folder() {
  const dir = await tempDir();
  dirs.push(dir);
  return OutputFolder.open(dir.path, "shortvideo", new Redactor(), { owner: true });
}

const journalOf = async (out: OutputFolder) => {
  const [name] = await readdir(out.file(checkpointsFolder));
  return join(out.file(checkpointsFolder), name as string);
};
const lines = async (path: string) => (await readFile(path, "utf8")).split("\n").filter(Boolean);
const page = (pages: number): Checkpoint => ({ ...freshCheckpoint(creator), pages, bytes: pages * 100 });

/** Saves `checkpoint` as a run of its own would: a store that closes its journal after. */
async function saveAlone(out: OutputFolder, checkpoint: Checkpoint): Promise<void> {
  const store = diskCheckpoints(out);
  await store.save(checkpoint);
  await store.close();
}

describe("the checkpoint journal", () => {
  it("appends a line per save and loads the last one", async () => {
    const out = await folder();
    const store = diskCheckpoints(out);
    for (let pages = 0; pages < 3; pages++) await store.save(page(pages));
    await store.close(creator.file);
    expect(await lines(await journalOf(out))).toHaveLength(3);
    expect(await diskCheckpoints(out).load(creator)).toEqual(page(2));
  });

  it("ignores a line cut short by a kill, and the writer's next save cuts it off", async () => {
    const out = await folder();
    await saveAlone(out, page(1));
    const path = await journalOf(out);
    // A kill in the middle of the second save's write: part of a line, no newline.
    await appendFile(path, JSON.stringify(page(2)).slice(0, 40));
    const store = diskCheckpoints(out);
    expect(await store.load(creator)).toEqual(page(1));
    await store.save(page(2));
    await store.close();
    expect((await lines(path)).map((line) => JSON.parse(line))).toEqual([page(1), page(2)]);
  });

  it("reads a journal without a whole line (created, its first save cut short) as no checkpoint, and starts it over", async () => {
    for (const left of ["", JSON.stringify(page(0)).slice(0, 30)]) {
      const out = await folder();
      await saveAlone(out, page(0));
      const path = await journalOf(out);
      await writeFile(path, left);
      const store = diskCheckpoints(out);
      expect(await store.load(creator)).toBeUndefined();
      await store.save(page(0));
      await store.close();
      expect(await lines(path)).toEqual([JSON.stringify(page(0))]);
    }
  });

  it("writes a journal past its size limit anew, as one line", async () => {
    const out = await folder();
    const store = diskCheckpoints(out);
    const saves = Math.ceil((2 * compactAtBytes) / Buffer.byteLength(JSON.stringify(page(0))));
    for (let pages = 0; pages < saves; pages++) await store.save(page(pages));
    await store.close();
    const kept = await lines(await journalOf(out));
    expect(kept.length).toBeLessThan(saves);
    expect(JSON.parse(kept.at(-1) as string)).toEqual(page(saves - 1));
    expect(await diskCheckpoints(out).load(creator)).toEqual(page(saves - 1));
  });

  it("loads the one-line checkpoint file of the version before journals, and goes on from it", async () => {
    const out = await folder();
    await saveAlone(out, page(0));
    const path = await journalOf(out);
    await writeFile(path, `${JSON.stringify(page(4))}\n`);
    const store = diskCheckpoints(out);
    expect(await store.load(creator)).toEqual(page(4));
    await store.save(page(5));
    await store.close();
    expect(await diskCheckpoints(out).load(creator)).toEqual(page(5));
  });

  it("refuses a journal whose last whole line is not a checkpoint of the creator", async () => {
    const out = await folder();
    await saveAlone(out, page(1));
    await appendFile(await journalOf(out), '{"creator":"maya.bakes","bytes":-1}\n');
    await expect(diskCheckpoints(out).load(creator)).rejects.toThrow(/is not a checkpoint of maya\.bakes/);
  });
});

describe("an append file of the folder", () => {
  it("refuses every use once closed: the descriptor's number, reused by the next file opened, never reaches that file", async () => {
    const out = await folder();
    const first = await out.append("first.jsonl");
    expect(await first.write("one\n")).toBe(4);
    await first.close();
    // Opened after the close, the second file is likely to get the first one's descriptor number.
    const second = await out.append("second.jsonl");
    await expect(first.write("two\n")).rejects.toThrow(/cannot write .*first\.jsonl \(closed\)/);
    await expect(first.size()).rejects.toThrow(/first\.jsonl \(closed\)/);
    await expect(first.cut(0)).rejects.toThrow(/first\.jsonl \(closed\)/);
    await first.close();
    expect(await second.write("second\n")).toBe(7);
    await second.close();
    expect(await readFile(out.file("first.jsonl"), "utf8")).toBe("one\n");
    expect(await readFile(out.file("second.jsonl"), "utf8")).toBe("second\n");
  });

  it("counts a write's bytes as UTF-8 and redacts it first", async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const out = await OutputFolder.open(dir.path, "shortvideo", new Redactor(["scrape_live_secret"]), { owner: true });
    const file = await out.append("creator.jsonl");
    const written = await file.write("café scrape_live_secret\n");
    await file.close();
    const text = await readFile(out.file("creator.jsonl"), "utf8");
    expect(text).not.toContain("scrape_live_secret");
    expect(written).toBe(Buffer.byteLength(text));
    expect(await file.size().catch((error: Error) => error.message)).toMatch(/closed/);
  });
});
