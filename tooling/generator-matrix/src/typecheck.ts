// `tsc --strict` over usage files, through the compiler API so that one program checks them all.
import { relative } from "node:path";
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

/** The diagnostics of one program over `files`, as `path:line: message` lines, by the file they are in (relative to `root`). */
export function typecheck(files: string[], root: string): Map<string, string[]> {
  const program = ts.createProgram(files, compilerOptions);
  const byFile = new Map<string, string[]>();
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file ? relative(root, diagnostic.file.fileName) : "(global)";
    const line = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1 : 0;
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, " ");
    byFile.set(file, [...(byFile.get(file) ?? []), `${file}:${line}: ${text}`]);
  }
  return byFile;
}
