// Writes the coverage matrix (src/coverage.ts, built into dist) into the README and the docs' sandbox guide, between
// their `<!-- coverage:start -->` and `<!-- coverage:end -->` markers. test/coverage.test.ts fails until it is run.
import { readFileSync, writeFileSync } from "node:fs";
import { renderCoverage } from "../dist/coverage.js";

const table = renderCoverage();
for (const file of ["README.md", "../../docs/pages/guides/sandbox.md"]) {
  const path = new URL(`../${file}`, import.meta.url);
  const text = readFileSync(path, "utf8");
  if (!/<!-- coverage:start[^>]*-->[\s\S]*?<!-- coverage:end -->/.test(text)) throw new Error(`${file} has no coverage markers`);
  const updated = text.replace(/(<!-- coverage:start[^>]*-->)[\s\S]*?(<!-- coverage:end -->)/, `$1\n${table}\n$2`);
  writeFileSync(path, updated);
}
