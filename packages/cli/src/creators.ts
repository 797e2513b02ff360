import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { UsageError } from "./usage-error.js";

/** One creator of an export, however many lines of the creators file name it. */
export interface Creator {
  /**
   * Who the creator is: the handle without the optional leading `@` (the description's username pattern is
   * `@?[a-zA-Z0-9._-]{1,100}`), its ASCII letters in lower case (the reference answers handles in lower or canonical
   * case, so `Maya.Bakes` is `maya.bakes`). Only ASCII folds: Unicode's lower case turns the Kelvin sign (U+212A) into
   * `k`, which would make a handle the service refuses one creator with a valid one. Checkpoints, jobs and the manifest
   * are keyed by it.
   */
  identity: string;
  /** The handle sent to the API: the first line that named the creator, without its `@`. */
  handle: string;
  /** The lines of the creators file that named it. */
  names: string[];
  /** Its file in the platform's folder (`fileName`). */
  file: string;
}

// Names Windows keeps for devices, with any extension (`con.txt` is the console too).
const reservedNames = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/;

/**
 * A creator's file name: its identity's safe characters (`a-z0-9._-`; any other byte percent-encoded), cut to 64
 * bytes, then `~` and 16 hex digits of its SHA-256, then `.jsonl`. At most 87 bytes, whatever the handle; two
 * identities never share a name on a case-insensitive filesystem (their ASCII letters are lower case, other bytes
 * encoded, digests in lower case); no name is hidden (a leading dot is encoded) or a Windows device (`con`, `nul`,
 * `aux`… get a leading `_`).
 */
export function fileName(identity: string): string {
  const digest = createHash("sha256").update(identity).digest("hex").slice(0, 16);
  let prefix = "";
  for (const byte of Buffer.from(identity, "utf8")) {
    const char = String.fromCharCode(byte);
    const safe = /[a-z0-9._-]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    if (prefix.length + safe.length > 64) break;
    prefix += safe;
  }
  prefix = prefix.replace(/^\./, "%2E");
  if (reservedNames.test(prefix.split(".")[0] as string)) prefix = `_${prefix}`;
  return `${prefix}~${digest}.jsonl`;
}

/** A line of a creators file as a creator's identity and handle. */
export function creatorOf(line: string): Omit<Creator, "names"> {
  const handle = line.replace(/^@/, "");
  const identity = handle.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
  return { identity, handle, file: fileName(identity) };
}

/**
 * A creators file: one handle per line; blank lines and `#` comments are skipped, and lines naming the same creator
 * (`maya.bakes`, `@maya.bakes`, `Maya.Bakes`) make one creator. A line that is no valid handle is kept: the service
 * judges it, and it fails alone.
 */
export async function readCreators(path: string): Promise<Creator[]> {
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`--creators: cannot read ${path} (${error.code ?? error.message})`);
  });
  const creators = new Map<string, Creator>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*/, "").trim();
    if (line === "") continue;
    const creator = creatorOf(line);
    const known = creators.get(creator.identity);
    if (!known) creators.set(creator.identity, { ...creator, names: [line] });
    else if (!known.names.includes(line)) known.names.push(line);
  }
  if (creators.size === 0) throw new UsageError(`--creators: ${path} names no creator (one handle per line)`);
  return [...creators.values()];
}
