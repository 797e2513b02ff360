// publint (its JS API) and the attw CLI on a packed tarball.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
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

const run = promisify(execFile);
const attw = join(dirname(createRequire(import.meta.url).resolve("@arethetypeswrong/cli/package.json")), "dist/index.js");

/**
 * The attw CLI on the tarball, under its "esm-only" profile: the packages are ESM-only, so CommonJS resolution is not
 * checked. Returns `[]` when the CLI passes the package, its report (one entry) when it does not, or `null` when the
 * package ships no TypeScript types at all (the spec package: JSON, YAML and Markdown).
 * @param {string} tarball
 */
export async function runAttw(tarball) {
  /** @param {"json" | "ascii"} format */
  const check = (format) => run(process.execPath, [attw, tarball, "--profile", "esm-only", "--format", format], { maxBuffer: 64 * 1024 * 1024 });
  try {
    const { stdout } = await check("json");
    return JSON.parse(stdout).analysis.types === false ? null : [];
  } catch (caught) {
    const failed = /** @type {{ code?: unknown, stdout?: string, stderr?: string }} */ (caught);
    if (typeof failed.code !== "number") throw caught;
    // It found problems: its own human-readable report says which.
    const report = /** @type {typeof failed} */ (await check("ascii").catch((again) => again));
    return [String(report.stdout || report.stderr || failed.stderr).trim()];
  }
}
