// Every published description through each third-party generator, and each client's usage files through `tsc --strict`
// with TypeScript 5 and TypeScript 7. spec/README.md shows the outcome as a table; the test fails when the table and
// this run disagree.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, TOOLS, type Tool } from "../src/generators.mjs";
import {
  type Cell,
  checkAll,
  generateAll,
  generatedDir,
  hasResponseRanges,
  READ_GAPS,
  ROOT,
  readTableRows,
  runsOnTypescript7,
  SPEC_DIST,
  SURFACES,
  tableRows,
} from "../src/matrix.js";
import { typecheck } from "../src/typecheck.js";

const README = join(ROOT, "../../spec/README.md");
const SECOND = join(ROOT, "generated-again");
const DEFAULTS = mkdtempSync(join(tmpdir(), "orval-defaults-"));

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
  let typescript7: Record<Tool, ReturnType<typeof runsOnTypescript7>>;
  beforeAll(async () => {
    await generateAll();
    typescript7 = Object.fromEntries(TOOLS.map((tool) => [tool, runsOnTypescript7(tool)])) as typeof typescript7;
    cells = checkAll(Object.fromEntries(TOOLS.map((tool) => [tool, typescript7[tool].runs])) as Record<Tool, boolean>);
  });
  afterAll(() => {
    for (const dir of [SECOND, DEFAULTS]) rmSync(dir, { recursive: true, force: true });
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

  it("orval's defaults still write a response range as the literal status 2XX (the reason for its workaround)", async () => {
    const ranged = SURFACES.filter(hasResponseRanges);
    expect(ranged).toEqual(["platform", "platform-legacy"]);
    for (const surface of ranged) {
      const outDir = join(DEFAULTS, surface);
      await generate("orval", join(SPEC_DIST, `${surface}.json`), outDir);
      // Gone: drop the workaround (generateAll), and its words in spec/README.md.
      const problems = [...typecheck([join(outDir, "index.ts")], ROOT).values()].flat();
      expect(problems.some((problem) => /cannot immediately follow a numeric literal|'XX'|Expression expected|arithmetic operation/.test(problem)), surface).toBe(true);
    }
  });

  it("runs orval on TypeScript 7; openapi-typescript and hey-api fail there for want of TypeScript 5's compiler API", () => {
    expect(typescript7.orval).toEqual({ runs: true });
    for (const tool of ["openapi-typescript", "hey-api"] as const) {
      // Gone: the table says so, and spec/README.md's note on TypeScript 7 goes.
      expect(typescript7[tool].runs, tool).toBe(false);
      expect(typescript7[tool].error, tool).toMatch(/TypeError: Cannot read properties of undefined \(reading '(createKeywordTypeNode|LineFeed)'\)/);
    }
  });

  it.each(READ_GAPS)("$tool still gives connect's reader $gap", ({ tool, surface, closed }) => {
    const client = readdirSync(generatedDir(tool, surface), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
      .map((entry) => readFileSync(join(entry.parentPath, entry.name), "utf8"))
      .join("\n");
    // Closed: write its reads file, and take it off READ_GAPS and spec/README.md.
    expect(closed(client)).toBe(false);
  });

  it("is the table spec/README.md shows", () => {
    expect(readTableRows(readFileSync(README, "utf8")), "update spec/README.md with these rows").toEqual(tableRows(cells));
  });

  it.each(SURFACES)("%s: every client compiles and reads precisely, with TypeScript 5 and 7", (surface) => {
    for (const cell of cells.filter((c) => c.surface === surface)) {
      const gap = READ_GAPS.some((g) => g.tool === cell.tool && g.surface === surface);
      expect(
        { compiles: cell.compiles, precise: cell.precise ?? true, reads: cell.reads ?? true, checks7: cell.typescript7.checks, problems: cell.problems },
        cell.tool,
      ).toEqual({ compiles: true, precise: true, reads: !gap, checks7: true, problems: [] });
    }
  });
});
