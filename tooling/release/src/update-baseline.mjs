// After a publish: the built descriptions become "the description as last released".
// Run by `pnpm release` after `changeset publish`.
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { DIST_DIR, RELEASED_DIR } from "./api-diff.mjs";

mkdirSync(RELEASED_DIR, { recursive: true });
for (const file of readdirSync(DIST_DIR).filter((f) => f.endsWith(".json") && !f.endsWith(".deref.json"))) {
  copyFileSync(join(DIST_DIR, file), join(RELEASED_DIR, file));
  console.log(`spec/released/${file} <- spec/dist/${file}`);
}
