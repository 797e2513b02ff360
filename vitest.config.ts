import { defineConfig } from "vitest/config";

// Every workspace package with tests is a project; `pnpm test` runs them per package through turbo,
// `pnpm exec vitest` at the root runs them all in one process.
export default defineConfig({
  test: {
    projects: ["spec", "packages/*", "tooling/*", "docs"],
  },
});
