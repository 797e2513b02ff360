// The matrix: every tool × every published surface, generated and type-checked, and the table spec/README.md shows.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { generate, TOOL_NAMES, TOOLS, type Tool } from "./generators.js";
import { typecheck } from "./typecheck.js";

export const ROOT = resolve(import.meta.dirname, "..");
export const SPEC_DIST = resolve(ROOT, "../../spec/dist");
export const SURFACES = ["scraper", "platform", "platform-legacy", "connect"] as const;
export type Surface = (typeof SURFACES)[number];

/** `compiles`: the calls type-check. `precise`: the typed reads and the refusals do too; `null` where there is nothing to read. */
export interface Cell {
  tool: Tool;
  surface: Surface;
  compiles: boolean;
  precise: boolean | null;
  problems: string[];
}

export const generatedDir = (tool: Tool, surface: Surface, root = join(ROOT, "generated")) => join(root, tool, surface);
const usageFile = (tool: Tool, surface: Surface, kind: "calls" | "precise") => join(ROOT, "usage", tool, `${surface}.${kind}.ts`);

/** Generates every cell's client into `generated/` (ignored by git), one tool after the other. */
export async function generateAll(root = join(ROOT, "generated")): Promise<void> {
  for (const tool of TOOLS) {
    for (const surface of SURFACES) await generate(tool, join(SPEC_DIST, `${surface}.json`), generatedDir(tool, surface, root));
  }
}

/**
 * Type-checks every usage file in one program. A cell's problems are those of its usage file and of its generated
 * client (which both usage files import), so a client that does not compile fails both columns.
 */
export function checkAll(): Cell[] {
  const files = TOOLS.flatMap((tool) =>
    SURFACES.flatMap((surface) => [usageFile(tool, surface, "calls"), usageFile(tool, surface, "precise")].filter(existsSync)),
  );
  const problems = typecheck(files, ROOT);
  const of = (prefix: string) => [...problems.entries()].filter(([file]) => file.startsWith(prefix)).flatMap(([, lines]) => lines);
  return TOOLS.flatMap((tool) =>
    SURFACES.map((surface): Cell => {
      const client = of(`generated/${tool}/${surface}/`);
      const calls = [...client, ...of(`usage/${tool}/${surface}.calls.ts`)];
      const hasPrecise = existsSync(usageFile(tool, surface, "precise"));
      const precise = [...client, ...of(`usage/${tool}/${surface}.precise.ts`)];
      return {
        tool,
        surface,
        compiles: calls.length === 0,
        precise: hasPrecise ? precise.length === 0 : null,
        problems: [...new Set([...calls, ...(hasPrecise ? precise : [])])],
      };
    }),
  );
}

const mark = (value: boolean | null) => (value === null ? "n/a" : value ? "yes" : "no");

/** The table's rows, as spec/README.md writes them. */
export function tableRows(cells: Cell[]): string[] {
  return cells.map((cell) => `| ${TOOL_NAMES[cell.tool]} | ${cell.surface} | ${mark(cell.compiles)} | ${mark(cell.precise)} |`);
}

/** The rows of the generator table in a Markdown text: those between its header and the first line that is not a row. */
export function readTableRows(markdown: string): string[] {
  const lines = markdown.split("\n");
  const header = lines.findIndex((line) => /^\| Tool \| Surface \| Compiles \| Precise \|$/.test(line.trim()));
  if (header < 0) return [];
  const rows: string[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(line.trim());
  }
  return rows;
}
