// tsc compiles the TypeScript but leaves the generated validator modules (plain JS with a .d.ts beside them) alone:
// copy them next to the compiled code that imports them.
import { cpSync } from "node:fs";

cpSync("src/generated", "dist/generated", { recursive: true, filter: (path) => !path.endsWith(".ts") || path.endsWith(".d.ts") });
