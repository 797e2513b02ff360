// Loaded with `node --import`: every `import "typescript"` after it gets TypeScript 7 (the workspace's `typescript7`
// alias) instead of the TypeScript 5 the generators declare, as an integrator on TypeScript 7 would run them.
import { register } from "node:module";

register("./typescript7-hook.mjs", import.meta.url, { data: { typescript7: import.meta.resolve("typescript7") } });
