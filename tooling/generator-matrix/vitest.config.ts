import { defineProject } from "vitest/config";

// Three generators over four descriptions, twice (the second run checks determinism), then one type-check program:
// on a loaded 2-core machine that takes a while, so the limits are generous.
export default defineProject({ test: { name: "generator-matrix", testTimeout: 300_000, hookTimeout: 300_000 } });
