import { defineProject } from "vitest/config";

// Eight runtimes, each a process (or a browser) of its own, on a machine busy with other suites.
export default defineProject({ test: { name: "runtime-matrix", testTimeout: 30_000, hookTimeout: 600_000 } });
