import { createRequire } from "node:module";

// The version of Prism serving the sandbox, read without loading Prism. `pnpm build` replaces this module's output with
// the version it bundled (scripts/bundle-prism.mjs): an install has no Prism package to read it from.

/** The version of Prism serving the sandbox. */
export const prismVersion: string = createRequire(import.meta.url)("@stoplight/prism-http/package.json").version;
