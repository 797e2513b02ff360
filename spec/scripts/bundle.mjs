// Bundles every surface listed under `apis:` in redocly.yaml into dist/<api>.yaml, dist/<api>.json and a fully
// dereferenced dist/<api>.deref.json, with the Redocly CLI itself so that what we ship is what `redocly lint` checked.
import { execFile } from "node:child_process";
import { mkdir, readFile, rm } from "node:fs/promises";
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { parse } from "yaml";

const run = promisify(execFile);
const specDir = fileURLToPath(new URL("..", import.meta.url));
const config = fileURLToPath(new URL("../../redocly.yaml", import.meta.url));
const redocly = fileURLToPath(new URL("../node_modules/@redocly/cli/bin/cli.js", import.meta.url));

// `--out <dir>` bundles elsewhere (the determinism test builds a second copy to compare with dist/).
const outIndex = process.argv.indexOf("--out");
const outDir = resolve(outIndex > 0 ? process.argv[outIndex + 1] : `${specDir}/dist`);

const { apis } = parse(await readFile(config, "utf8"));
await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });

const outputs = (api) => [
  [`${outDir}/${api}.yaml`],
  [`${outDir}/${api}.json`],
  [`${outDir}/${api}.deref.json`, "--dereferenced"],
];

for (const api of Object.keys(apis)) {
  await Promise.all(
    outputs(api).map(async ([output, ...flags]) => {
      try {
        await run(process.execPath, [redocly, "bundle", api, "--config", config, "-o", output, ...flags], { cwd: specDir });
      } catch (error) {
        // The CLI prints its diagnostics to stderr; only show them when the bundle failed.
        process.stderr.write(error.stderr ?? String(error));
        throw new Error(`bundling ${api} into ${output} failed`);
      }
    }),
  );
  console.log(`bundled ${api} → ${outputs(api).map(([o]) => relative(specDir, o)).join(", ")}`);
}
