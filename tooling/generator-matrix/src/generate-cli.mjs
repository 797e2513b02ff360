// `node [--import ./on-typescript7.mjs] generate-cli.mjs <tool> <input> <outDir>`: one generator run, in a process of its
// own, so that it can be given another TypeScript. Exits 1 with the generator's error on stderr.
import { generate } from "./generators.mjs";

const [tool, input, outDir] = process.argv.slice(2);
await generate(/** @type {import("./generators.mjs").Tool} */ (tool), String(input), String(outDir));
