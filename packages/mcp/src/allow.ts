import { catalog, type Operation } from "./catalog.js";
import { McpInputError } from "./errors.js";

/** An operationId pattern with `*` (`*Profile`, `shortvideo*`) as a regular expression over whole operationIds. */
const pattern = (entry: string) => new RegExp(`^${entry.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);

function matches(operation: Operation, entry: string): boolean {
  const { operationId, tag, platform } = operation.rules;
  return entry === operationId || entry === tag || entry === platform || (entry.includes("*") && pattern(entry).test(operationId));
}

/**
 * The operations `--allow` lets through, in the description's order: each entry is an operationId
 * (`shortvideoProfile`), a pattern of them (`*Profile`), a tag (`Focused: shortvideo`) or a platform (`photoshare`,
 * which takes its focused operations too). No entry, no filter. An entry that matches nothing is a typo, refused.
 */
export function allowOperations(entries: readonly string[] | undefined, operations: readonly Operation[] = catalog): Operation[] {
  const wanted = (entries ?? []).map((entry) => entry.trim()).filter(Boolean);
  if (wanted.length === 0) return [...operations];
  const chosen = new Set<Operation>();
  for (const entry of wanted) {
    const found = operations.filter((operation) => matches(operation, entry));
    if (found.length === 0) {
      throw new McpInputError("allow", `"${entry}" names no operationId, tag or platform of the scraper API (e.g. shortvideoProfile, *Profile, "Focused: shortvideo", photoshare).`);
    }
    for (const operation of found) chosen.add(operation);
  }
  return operations.filter((operation) => chosen.has(operation));
}
