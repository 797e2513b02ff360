// `tsc --strict` over usage files: TypeScript 5 through its compiler API, so that one program checks them all, and
// TypeScript 7 (the workspace's `typescript7` alias, a native compiler with no JavaScript API) through its command line.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** The options of `tsc --strict --noEmit` for code that a bundler resolves, as generated clients are usually consumed. */
export const compilerOptions: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowImportingTsExtensions: true,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
  types: [],
  skipLibCheck: true,
};

/** The same options as a tsconfig.json says them, for TypeScript 7's command line. */
const configOptions = {
  strict: true,
  noEmit: true,
  target: "es2022",
  module: "esnext",
  moduleResolution: "bundler",
  allowImportingTsExtensions: true,
  lib: ["es2022", "dom", "dom.iterable"],
  types: [],
  skipLibCheck: true,
};

/** Adds a `path:line: message` line to the problems of the file it is in. */
const add = (byFile: Map<string, string[]>, file: string, line: number, text: string) => byFile.set(file, [...(byFile.get(file) ?? []), `${file}:${line}: ${text}`]);

/** The diagnostics of one program over `files`, as `path:line: message` lines, by the file they are in (relative to `root`). */
export function typecheck(files: string[], root: string): Map<string, string[]> {
  const program = ts.createProgram(files, compilerOptions);
  const byFile = new Map<string, string[]>();
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file ? relative(root, diagnostic.file.fileName) : "(global)";
    const line = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1 : 0;
    add(byFile, file, line, ts.flattenDiagnosticMessageText(diagnostic.messageText, " "));
  }
  return byFile;
}

/** The version of TypeScript 7 the matrix checks with. */
export const typescript7Version: string = createRequire(import.meta.url)("typescript7/package.json").version;

/** The same check with TypeScript 7's `tsc`, run on a tsconfig listing `files`; its diagnostics by file, as above. */
export function typecheck7(files: string[], root: string): Map<string, string[]> {
  const dir = mkdtempSync(join(tmpdir(), "typescript7-"));
  try {
    const config = join(dir, "tsconfig.json");
    writeFileSync(config, JSON.stringify({ compilerOptions: configOptions, files: files.map((file) => resolve(file)) }));
    // Its `exports` list no `bin/`: the launcher sits beside its package.json.
    const tsc = join(dirname(createRequire(import.meta.url).resolve("typescript7/package.json")), "bin/tsc");
    const run = spawnSync(process.execPath, [tsc, "-p", config, "--pretty", "false"], { cwd: root, encoding: "utf8" });
    const byFile = new Map<string, string[]>();
    for (const line of `${run.stdout}${run.stderr}`.split("\n").filter(Boolean)) {
      const [, file, at, text] = /^(.+?)\((\d+),\d+\): (.*)$/.exec(line) ?? [undefined, "(global)", "0", line];
      add(byFile, relative(root, resolve(root, file as string)), Number(at), text as string);
    }
    if (run.status !== 0 && byFile.size === 0) add(byFile, "(global)", 0, `tsc exited ${run.status}: ${run.error?.message ?? ""}`);
    return byFile;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
