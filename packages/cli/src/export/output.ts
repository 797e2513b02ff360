import { postKey } from "@content-scraper/client";
import { CreatorTakenError } from "./taken.js";
import type { AppendFile, OutputFolder } from "./folder.js";

/**
 * A line of a creator's file: its profile first, then one line per post, in the order fetched (an export's pages
 * newest first; each poll then adds the posts that appeared since, newest first among them).
 */
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

/** The lines of an export file's text; `undefined` if one of them is not an export line (the file was altered). */
function parseLines(text: string): ExportLine[] | undefined {
  const lines: ExportLine[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    try {
      const parsed = JSON.parse(line) as ExportLine;
      if (parsed?.kind !== "profile" && parsed?.kind !== "post") return undefined;
      lines.push(parsed);
    } catch {
      return undefined;
    }
  }
  return lines;
}

/**
 * Opens a creator's file at a checkpoint: whatever was written after it (a page whose checkpoint a kill prevented) is
 * cut off, since that page is fetched again. Answers `undefined` when the file does not match the checkpoint (shorter,
 * or not export lines): the creator's export has to start over. The size, the posts already written (read from the
 * checkpoint's bytes only) and the cut go through one descriptor: a page another process appends meanwhile lies past
 * the checkpoint, so its posts are never taken for written and then cut off.
 *
 * Where another processing can take the creator over (a fleet), each append first awaits `beforeWrite` (the claim: it
 * throws once another worker took it), then checks that the file holds exactly what this processing counted. A worker
 * that lost the creator can have one append in flight as the new owner opens the file; it lands at the end, after the
 * new owner's cut, and the next append cuts it off again. A file shorter than counted was cut by a new owner: this
 * processing no longer holds the creator. Alone on the folder (its lock), a run has no one to check for.
 */
export async function openCreatorOutput(folder: OutputFolder, file: string, checkpointBytes: number, beforeWrite?: () => Promise<void>): Promise<CreatorOutput | undefined> {
  const handle: AppendFile = await folder.append(file);
  const seen = new Set<string>();
  try {
    const size = await handle.size();
    const written = checkpointBytes > 0 ? await handle.head(checkpointBytes) : Buffer.alloc(0);
    const lines = written.length === checkpointBytes ? parseLines(written.toString("utf8")) : undefined;
    if (size < checkpointBytes || !lines) {
      await handle.close();
      return undefined;
    }
    for (const line of lines) if (line.kind === "post") seen.add(postKey(line.post));
    if (size > checkpointBytes) await handle.cut(checkpointBytes);
  } catch (error) {
    await handle.close();
    throw error;
  }
  let bytes = checkpointBytes;
  return {
    seen,
    append: async (lines) => {
      if (lines.length === 0) return bytes;
      if (beforeWrite) {
        await beforeWrite();
        const size = await handle.size();
        if (size < bytes) throw new CreatorTakenError(`${file} is shorter than this processing wrote: another took its creator`);
        if (size > bytes) await handle.cut(bytes);
      }
      bytes += await handle.write(lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
      return bytes;
    },
    close: () => handle.close(),
  };
}
