// The matrix: every tool × every published surface, generated and type-checked with TypeScript 5 and 7, and the table
// spec/README.md shows.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { generate, orvalWithoutStatus, TOOL_NAMES, TOOLS, type Tool } from "./generators.mjs";
import { typecheck, typecheck7 } from "./typecheck.js";

export const ROOT = resolve(import.meta.dirname, "..");
export const SPEC_DIST = resolve(ROOT, "../../spec/dist");
export const SURFACES = ["scraper", "platform", "platform-legacy", "connect"] as const;
export type Surface = (typeof SURFACES)[number];
/** What a usage file does: call the operations, hold their types to the description, read every page, error and protocol body. */
export type Usage = "calls" | "precise" | "reads";

/** A `Retry-After` member of a generated type (not the words of a comment). */
const retryAfterProperty = /["']Retry-After["']\??:/;

/**
 * Where a tool gives the reader nothing to read (spec/README.md): the connect description's one convention, a 429 with
 * `Retry-After` that no operation uses. A cell listed here has no reads file; the test fails when the gap closes.
 */
export const READ_GAPS: { tool: Tool; surface: Surface; gap: string; closed: (client: string) => boolean }[] = [
  { tool: "hey-api", surface: "connect", gap: "no type for the 429 convention", closed: (client) => retryAfterProperty.test(client) },
  { tool: "orval", surface: "connect", gap: "the 429 convention as `void`, without `Retry-After`", closed: (client) => retryAfterProperty.test(client) },
];

/** `compiles`: the calls type-check. `precise`, `reads`: those usage files do too; `null` where there is nothing to hold. */
export interface Cell {
  tool: Tool;
  surface: Surface;
  compiles: boolean;
  precise: boolean | null;
  reads: boolean | null;
  /** Whether the generator runs on TypeScript 7, and whether the client and its usage files type-check with it. */
  typescript7: { generates: boolean; checks: boolean };
  problems: string[];
}

export const generatedDir = (tool: Tool, surface: Surface, root = join(ROOT, "generated")) => join(root, tool, surface);
const usageFile = (tool: Tool, surface: Surface, usage: Usage) => join(ROOT, "usage", tool, `${surface}.${usage}.ts`);

/** Whether a description keeps a response range (`2XX`): orval writes one as the literal status `2XX`, not TypeScript. */
export function hasResponseRanges(surface: Surface): boolean {
  const description = JSON.parse(readFileSync(join(SPEC_DIST, `${surface}.json`), "utf8")) as { paths?: Record<string, Record<string, { responses?: object }>> };
  return Object.values(description.paths ?? {}).some((item) => Object.values(item).some((operation) => Object.keys(operation?.responses ?? {}).some((status) => /^[1-5]XX$/.test(status))));
}

/**
 * Generates every cell's client into `generated/` (ignored by git), one tool after the other: orval with the workaround
 * spec/README.md gives (`includeHttpResponseReturnType: false`) on the surfaces with response ranges.
 */
export async function generateAll(root = join(ROOT, "generated")): Promise<void> {
  for (const tool of TOOLS) {
    for (const surface of SURFACES) {
      const override = tool === "orval" && hasResponseRanges(surface) ? orvalWithoutStatus : undefined;
      await generate(tool, join(SPEC_DIST, `${surface}.json`), generatedDir(tool, surface, root), override);
    }
  }
}

/**
 * Whether `tool` runs on TypeScript 7: a child process generates the OAuth platform's client with every `import
 * "typescript"` resolved to TypeScript 7 (src/on-typescript7.mjs). The first line of its error where it does not.
 */
export function runsOnTypescript7(tool: Tool): { runs: boolean; error?: string } {
  const out = mkdtempSync(join(tmpdir(), `typescript7-${tool}-`));
  try {
    const run = spawnSync(
      process.execPath,
      ["--import", join(ROOT, "src/on-typescript7.mjs"), join(ROOT, "src/generate-cli.mjs"), tool, join(SPEC_DIST, "platform.json"), out],
      { encoding: "utf8" },
    );
    if (run.status === 0) return { runs: true };
    return { runs: false, error: run.stderr.split("\n").find((line) => /Error/.test(line))?.trim() ?? `exit ${run.status}` };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * Type-checks every usage file in one program with TypeScript 5, and again with TypeScript 7. A cell's problems are
 * those of its usage files and of its generated client (which the usage files import), so a client that does not
 * compile fails every column.
 */
export function checkAll(generatesOnTypescript7: Record<Tool, boolean>): Cell[] {
  const files = TOOLS.flatMap((tool) => SURFACES.flatMap((surface) => (["calls", "precise", "reads"] as const).map((usage) => usageFile(tool, surface, usage)).filter(existsSync)));
  const [problems, problems7] = [typecheck(files, ROOT), typecheck7(files, ROOT)];
  const of = (found: Map<string, string[]>, prefix: string) => [...found.entries()].filter(([file]) => file.startsWith(prefix)).flatMap(([, lines]) => lines);
  return TOOLS.flatMap((tool) =>
    SURFACES.map((surface): Cell => {
      const usage = (found: Map<string, string[]>, kind: Usage) => [...of(found, `generated/${tool}/${surface}/`), ...of(found, `usage/${tool}/${surface}.${kind}.ts`)];
      const has = (kind: Usage) => existsSync(usageFile(tool, surface, kind));
      const gap = READ_GAPS.some((g) => g.tool === tool && g.surface === surface);
      const [calls, precise, reads] = (["calls", "precise", "reads"] as const).map((kind) => usage(problems, kind));
      const checks7 = (["calls", "precise", "reads"] as const).every((kind) => !has(kind) || usage(problems7, kind).length === 0);
      return {
        tool,
        surface,
        compiles: (calls ?? []).length === 0,
        precise: has("precise") ? (precise ?? []).length === 0 : null,
        reads: has("reads") ? (reads ?? []).length === 0 : gap ? false : null,
        typescript7: { generates: generatesOnTypescript7[tool], checks: checks7 },
        problems: [...new Set([...(calls ?? []), ...(has("precise") ? (precise ?? []) : []), ...(has("reads") ? (reads ?? []) : [])])],
      };
    }),
  );
}

const mark = (value: boolean | null) => (value === null ? "n/a" : value ? "yes" : "no");
const markTypescript7 = ({ generates, checks }: Cell["typescript7"]) => (!checks ? "no" : generates ? "yes" : "checks; generates on TypeScript 5 only");

/** The table's rows, as spec/README.md writes them. */
export function tableRows(cells: Cell[]): string[] {
  return cells.map(
    (cell) => `| ${TOOL_NAMES[cell.tool]} | ${cell.surface} | ${mark(cell.compiles)} | ${mark(cell.precise)} | ${mark(cell.reads)} | ${markTypescript7(cell.typescript7)} |`,
  );
}

/** The rows of the generator table in a Markdown text: those between its header and the first line that is not a row. */
export function readTableRows(markdown: string): string[] {
  const lines = markdown.split("\n");
  const header = lines.findIndex((line) => /^\| Tool \| Surface \| Compiles \| Precise \| Reads \| TypeScript 7 \|$/.test(line.trim()));
  if (header < 0) return [];
  const rows: string[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(line.trim());
  }
  return rows;
}
