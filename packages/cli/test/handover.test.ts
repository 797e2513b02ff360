// A creator handed from one worker to another (a lease that lapsed while Redis was frozen, say): the worker that lost
// it writes nothing more, and a page it had in flight as the new owner opened the file is cut off, never left beside
// the new owner's copy of it. Two processings of one creator file, driven step by step.
import { appendFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { postKey } from "@content-scraper/client";
import { Redactor } from "@content-scraper/runtime";
import { afterAll, describe, expect, it } from "vitest";
import { OutputFolder } from "../src/export/folder.js";
import { type ExportLine, openCreatorOutput } from "../src/export/output.js";
import { CreatorTakenError } from "../src/export/taken.js";
import { tempDir } from "./harness.js";

const dirs: Array<Awaited<ReturnType<typeof tempDir>>> = [];
afterAll(async () => {
  for (const dir of dirs) await dir.remove();
});

const file = "creator.jsonl";
const page = (first: number): ExportLine[] =>
  [first, first + 1].map((id) => ({ kind: "post", platform: "shortvideo", creator: "creator", post: { id: String(id), platform: "shortvideo" } }));

async function folder() {
  const dir = await tempDir();
  dirs.push(dir);
  return OutputFolder.open(dir.path, "shortvideo", new Redactor(), { owner: true });
}

/** The post ids in the file, in order. */
async function ids(out: OutputFolder): Promise<string[]> {
  const text = await readFile(out.file(file), "utf8");
  return text.split("\n").filter(Boolean).map((line) => (JSON.parse(line) as { post: { id: string } }).post.id);
}

const lines = (items: ExportLine[]) => items.map((line) => `${JSON.stringify(line)}\n`).join("");

/**
 * The folder, as a new owner opening a file sees it while another process writes: `meanwhile` runs once, right after
 * the file's size is first read (by path, or through the file's descriptor).
 */
function racing(out: OutputFolder, meanwhile: () => void): OutputFolder {
  let raced = false;
  const once = <T>(value: T) => {
    if (!raced) meanwhile();
    raced = true;
    return value;
  };
  return {
    path: out.path,
    file: (name: string) => out.file(name),
    read: (name: string) => out.read(name),
    truncate: (name: string, bytes: number) => out.truncate(name, bytes),
    size: async (name: string) => once(await out.size(name)),
    append: async (name: string) => {
      const handle = await out.append(name);
      return { ...handle, size: async () => once(await handle.size()) };
    },
  } as unknown as OutputFolder;
}

/** A claim on the creator that another worker can take: `holding` throws once it has. */
function claim() {
  let taken = false;
  return {
    holding: async () => {
      if (taken) throw new CreatorTakenError("handed to another worker");
    },
    take: () => {
      taken = true;
    },
  };
}

describe("a creator handed to another worker", () => {
  it("the worker that lost it appends nothing more: its append fails and the file keeps only the new owner's pages", async () => {
    const out = await folder();
    const first = claim();
    const old = (await openCreatorOutput(out, file, 0, first.holding)) as NonNullable<Awaited<ReturnType<typeof openCreatorOutput>>>;
    const checkpoint = await old.append(page(1));
    // The lease lapses; another worker claims the creator and opens its file at the last checkpoint.
    first.take();
    const owner = (await openCreatorOutput(out, file, checkpoint, claim().holding)) as NonNullable<Awaited<ReturnType<typeof openCreatorOutput>>>;
    await expect(old.append(page(3))).rejects.toBeInstanceOf(CreatorTakenError);
    await owner.append(page(3));
    expect(await ids(out)).toEqual(["1", "2", "3", "4"]);
    await Promise.all([old.close(), owner.close()]);
  });

  it("a page the old worker had in flight lands after the new owner opened the file: the owner's next append cuts it off", async () => {
    const out = await folder();
    const old = (await openCreatorOutput(out, file, 0, claim().holding)) as NonNullable<Awaited<ReturnType<typeof openCreatorOutput>>>;
    const checkpoint = await old.append(page(1));
    // The new owner opens the file at the checkpoint; the old worker's append of page 3, past its claim check, lands.
    const owner = (await openCreatorOutput(out, file, checkpoint, claim().holding)) as NonNullable<Awaited<ReturnType<typeof openCreatorOutput>>>;
    await old.append(page(3));
    expect(await ids(out)).toEqual(["1", "2", "3", "4"]);
    // The owner fetches page 3 again and appends it: once in the file, not twice.
    await owner.append(page(3));
    expect(await ids(out)).toEqual(["1", "2", "3", "4"]);
    await owner.append(page(5));
    expect(await ids(out)).toEqual(["1", "2", "3", "4", "5", "6"]);
    await Promise.all([old.close(), owner.close()]);
  });

  it("the old worker, finding the file shorter than it wrote (the new owner cut it), stops without writing", async () => {
    const out = await folder();
    const old = (await openCreatorOutput(out, file, 0, claim().holding)) as NonNullable<Awaited<ReturnType<typeof openCreatorOutput>>>;
    const checkpoint = await old.append(page(1));
    await old.append(page(3));
    // The new owner resumes from the checkpoint before page 3 and cuts the file back to it.
    const owner = (await openCreatorOutput(out, file, checkpoint, claim().holding)) as NonNullable<Awaited<ReturnType<typeof openCreatorOutput>>>;
    await expect(old.append(page(5))).rejects.toBeInstanceOf(CreatorTakenError);
    await owner.append(page(3));
    expect(await ids(out)).toEqual(["1", "2", "3", "4"]);
    await Promise.all([old.close(), owner.close()]);
  });

  it("a page another worker appends while the new owner opens the file is neither taken for written nor kept: its posts are written once", async () => {
    const out = await folder();
    const old = (await openCreatorOutput(out, file, 0, claim().holding)) as NonNullable<Awaited<ReturnType<typeof openCreatorOutput>>>;
    const checkpoint = await old.append(page(1));
    // The old worker's page 3 lands right after the new owner learnt the file's size, before it read the posts.
    const owner = (await openCreatorOutput(racing(out, () => appendFileSync(out.file(file), lines(page(3)))), file, checkpoint, claim().holding)) as NonNullable<
      Awaited<ReturnType<typeof openCreatorOutput>>
    >;
    expect([...owner.seen].sort()).toEqual(["shortvideo:1", "shortvideo:2"]);
    // The owner fetches page 3 again and writes what it has not seen (as an export's page is written), then page 5.
    for (const next of [page(3), page(5)]) await owner.append(next.filter((line) => line.kind === "post" && !owner.seen.has(postKey(line.post))));
    expect(await ids(out)).toEqual(["1", "2", "3", "4", "5", "6"]);
    await Promise.all([old.close(), owner.close()]);
  });
});
