// Prepares every description the sandbox serves for Prism (src/scraper/prepared.ts) with the Prism bundle the build just
// made: into dist/generated/prism/ for the package, and the same into src/generated/prism/ for the tests, which run the
// sources.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { surfaces } from "../dist/mounts.js";
import { prepare, preparedUrl } from "../dist/scraper/prepared.js";

const root = join(import.meta.dirname, "..");
for (const { description } of surfaces) {
  const text = JSON.stringify(await prepare(description));
  const built = fileURLToPath(preparedUrl(description));
  for (const file of [built, join(root, "src", relative(join(root, "dist"), built))]) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}
