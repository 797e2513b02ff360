// publint and attw on a packed tarball, through their JS APIs.
import { readFile } from "node:fs/promises";
import { checkPackage, createPackageFromTarballData } from "@arethetypeswrong/core";
import { publint } from "publint";
import { formatMessage } from "publint/utils";

/**
 * publint at its strictest level: every suggestion, warning and error, as text.
 * @param {string} tarball
 */
export async function runPublint(tarball) {
  const data = await readFile(tarball);
  const buffer = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  const { messages, pkg } = await publint({ pack: { tarball: buffer }, level: "suggestion", strict: true });
  return messages.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`);
}

// The packages are ESM-only, so attw's "esm-only" profile: CommonJS resolution (node10, node16 from
// require) is not supported and not checked.
const IGNORED_RESOLUTIONS = new Set(["node10", "node16-cjs"]);

/**
 * attw on the tarball. Returns the problems that matter under the esm-only profile, as text, or
 * `null` when the package ships no TypeScript types at all (the spec package: JSON, YAML and Markdown).
 * @param {string} tarball
 */
export async function runAttw(tarball) {
  const data = new Uint8Array(await readFile(tarball));
  const result = await checkPackage(createPackageFromTarballData(data));
  if (result.types === false) return null;
  return result.problems
    .filter((p) => !("resolutionKind" in p) || !IGNORED_RESOLUTIONS.has(p.resolutionKind))
    .map((p) => {
      const where = ["entrypoint" in p ? p.entrypoint : "", "resolutionKind" in p ? p.resolutionKind : ""]
        .filter(Boolean)
        .join(" ");
      return `${p.kind}${where ? ` (${where})` : ""}`;
    });
}
