import { readFile } from "node:fs/promises";
import { UsageError } from "./usage-error.js";

/** A creators file: one handle per line; blank lines and `#` comments are skipped, repeats kept once. */
export async function readCreators(path: string): Promise<string[]> {
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`--creators: cannot read ${path} (${error.code ?? error.message})`);
  });
  const creators = new Set<string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*/, "").trim();
    if (line !== "") creators.add(line);
  }
  if (creators.size === 0) throw new UsageError(`--creators: ${path} names no creator (one handle per line)`);
  return [...creators];
}
