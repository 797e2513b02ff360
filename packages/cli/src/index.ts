/** The `content-scraper` command as a function, for programs that embed it: `await run(["node", "content-scraper", "export", …])`. */
export { run } from "./program.js";
export { exitCodes } from "./exit-codes.js";
export { fileName } from "./creators.js";
export type { Checkpoint } from "./export/checkpoint.js";
export type { Manifest, ManifestEntry, PollSummary } from "./export/manifest.js";
export type { Unreconciled, UnreconciledCause } from "./export/runs.js";
export type { ExportLine } from "./export/output.js";
