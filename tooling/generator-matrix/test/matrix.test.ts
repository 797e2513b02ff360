// Every published description through each third-party generator, and each client's usage files through `tsc --strict`.
// spec/README.md shows the outcome as a table; the test fails when the table and this run disagree.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, orvalWithoutStatus } from "../src/generators.js";
import { type Cell, checkAll, generateAll, generatedDir, readTableRows, ROOT, SPEC_DIST, SURFACES, tableRows } from "../src/matrix.js";
import { typecheck } from "../src/typecheck.js";

const README = join(ROOT, "../../spec/README.md");

/**
 * Defects of a generator that no honest description avoids (spec/README.md explains each). orval 7.13.2, the last
 * release that runs on Node 20, writes a response range (`2XX`, the OAuth APIs' success statuses, which the reference
 * does not show) as the literal `status: 2XX`, which is not TypeScript.
 */
const KNOWN_DEFECTS = [
  { tool: "orval", surface: "platform", symptom: /cannot immediately follow a numeric literal|'XX'|Expression expected|arithmetic operation/ },
  { tool: "orval", surface: "platform-legacy", symptom: /cannot immediately follow a numeric literal|'XX'|Expression expected|arithmetic operation/ },
];
const SECOND = join(ROOT, "generated-again");
const WORKAROUND = mkdtempSync(join(tmpdir(), "orval-workaround-"));

/** Every file under `dir`, with its contents, by path relative to `dir`. */
function snapshot(dir: string, at = ""): Record<string, string> {
  return Object.fromEntries(
    readdirSync(join(dir, at), { withFileTypes: true }).flatMap((entry) => {
      const path = join(at, entry.name);
      return entry.isDirectory() ? Object.entries(snapshot(dir, path)) : [[path, readFileSync(join(dir, path), "utf8")]];
    }),
  );
}

describe("the generator matrix", () => {
  let cells: Cell[];
  beforeAll(async () => {
    await generateAll();
    cells = checkAll();
  });
  afterAll(() => {
    for (const dir of [SECOND, WORKAROUND]) rmSync(dir, { recursive: true, force: true });
  });

  it("generates the same clients byte for byte on a second run", async () => {
    await generateAll(SECOND);
    expect(snapshot(SECOND)).toEqual(snapshot(join(ROOT, "generated")));
  });

  it("numbers no hey-api type to settle a name clash (the ExecutePayoutResponse2 and Cursor2 of before)", () => {
    const numbered = SURFACES.flatMap((surface) => {
      const types = readFileSync(join(generatedDir("hey-api", surface), "types.gen.ts"), "utf8");
      return [...types.matchAll(/^export (?:type|interface|const|enum) ([A-Za-z_$][\w$]*\d)\b/gm)].map((match) => `${surface}: ${match[1]}`);
    });
    expect(numbered).toEqual([]);
  });

  it("orval with the workaround spec/README.md gives: the clients of the surfaces with response ranges compile", async () => {
    for (const defect of KNOWN_DEFECTS) {
      const outDir = join(WORKAROUND, defect.surface);
      await generate("orval", join(SPEC_DIST, `${defect.surface}.json`), outDir, orvalWithoutStatus);
      expect([...typecheck([join(outDir, "index.ts")], ROOT).values()].flat(), defect.surface).toEqual([]);
    }
  });

  it("is the table spec/README.md shows", () => {
    expect(readTableRows(readFileSync(README, "utf8")), "update spec/README.md with these rows").toEqual(tableRows(cells));
  });

  it.each(SURFACES)("%s: every client compiles and reads precisely, but for the tools' own known defects", (surface) => {
    for (const cell of cells.filter((c) => c.surface === surface)) {
      const defect = KNOWN_DEFECTS.find((d) => d.tool === cell.tool && d.surface === surface);
      if (defect) {
        // Still there: the defect shows in the generated code, not in the usage. Gone: take it off the list and the table.
        expect(cell.compiles, `${cell.tool} × ${surface}: the known defect is gone`).toBe(false);
        expect(cell.problems.every((problem) => problem.startsWith(`generated/${cell.tool}/`) && defect.symptom.test(problem)), cell.problems.join("\n")).toBe(true);
      } else {
        expect({ compiles: cell.compiles, precise: cell.precise ?? true, problems: cell.problems }, cell.tool).toEqual({ compiles: true, precise: true, problems: [] });
      }
    }
  });
});
