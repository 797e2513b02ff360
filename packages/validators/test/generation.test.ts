import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// The build's generation step, run again twice: each run writes the very bytes the build wrote.
const require = createRequire(import.meta.url);
const codegen = dirname(require.resolve("@content-scraper/codegen/package.json"));
const bin = join(codegen, (require("@content-scraper/codegen/package.json") as { bin: Record<string, string> }).bin["content-scraper-codegen"] ?? "");
const spec = dirname(require.resolve("@content-scraper/spec/scraper.json"));
const generated = fileURLToPath(new URL("../src/generated/", import.meta.url));
const surfaces = ["scraper", "platform", "platform-legacy", "connect"];

async function generate(): Promise<string> {
  const out = await mkdtemp(join(tmpdir(), "validators-"));
  await promisify(execFile)(process.execPath, [bin, "--spec", spec, "--api", surfaces.join(","), "--out", out, "--targets", "types,validators"]);
  return out;
}

describe("generation", () => {
  it("is deterministic: two runs write the build's bytes", async () => {
    const runs = await Promise.all([generate(), generate()]);
    const files = (await readdir(generated)).sort();
    expect(files).toEqual(surfaces.flatMap((api) => [`${api}.types.ts`, `${api}.validators.d.ts`, `${api}.validators.js`]).sort());
    for (const run of runs) {
      expect((await readdir(run)).sort()).toEqual(files);
      for (const file of files) {
        const [built, again] = await Promise.all([readFile(join(generated, file)), readFile(join(run, file))]);
        expect(again.equals(built), file).toBe(true);
      }
    }
  }, 60_000);
});
