import { mkdir, open, readFile, stat, truncate } from "node:fs/promises";
import { join } from "node:path";
import { postKey } from "@content-scraper/client";

/** One JSONL file per platform and creator: `<out>/<platform>/<creator>.jsonl`. */
export function creatorFile(out: string, platform: string, creator: string): string {
  // Percent-encoded, so no handle can name a path (`/`, `..`) or a hidden file (a leading dot).
  return join(out, platform, `${encodeURIComponent(creator).replace(/^\./, "%2E")}.jsonl`);
}

/** A line of an export file: the creator's profile first, then one line per post, newest first. */
export type ExportLine =
  | { kind: "profile"; platform: string; creator: string; profile: unknown; requestId?: string | undefined }
  | { kind: "post"; platform: string; creator: string; post: { id: string; platform: string } & Record<string, unknown> };

export interface CreatorOutput {
  /** The post keys already in the file (platform + id): what must not be written again. */
  readonly seen: Set<string>;
  /** Appends lines; answers the file's length after them, the figure a checkpoint records. */
  append(lines: ExportLine[]): Promise<number>;
  close(): Promise<void>;
}

/**
 * Opens a creator's file at a checkpoint: whatever was written after the checkpoint (a page whose checkpoint a kill
 * prevented) is cut off, since that page is fetched again. Answers `undefined` when the file is shorter than the
 * checkpoint says (it was moved or deleted): the creator's export has to start over.
 */
export async function openCreatorOutput(path: string, checkpointBytes: number): Promise<CreatorOutput | undefined> {
  await mkdir(join(path, ".."), { recursive: true });
  const size = await stat(path).then((stats) => stats.size, () => 0);
  if (size < checkpointBytes) return undefined;
  if (size > checkpointBytes) await truncate(path, checkpointBytes);
  const seen = new Set<string>();
  if (checkpointBytes > 0) {
    for (const line of (await readFile(path, "utf8")).split("\n")) {
      if (line === "") continue;
      const parsed = JSON.parse(line) as ExportLine;
      if (parsed.kind === "post") seen.add(postKey(parsed.post));
    }
  }
  const file = await open(path, "a");
  let bytes = checkpointBytes;
  return {
    seen,
    append: async (lines) => {
      if (lines.length === 0) return bytes;
      const text = lines.map((line) => `${JSON.stringify(line)}\n`).join("");
      await file.write(text);
      bytes += Buffer.byteLength(text);
      return bytes;
    },
    close: () => file.close(),
  };
}

/** Reads an export file's lines (for `poll` and for tests). */
export async function readExportFile(path: string): Promise<ExportLine[]> {
  const text = await readFile(path, "utf8");
  return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as ExportLine);
}
