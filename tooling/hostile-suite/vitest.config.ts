import { defineProject } from "vitest/config";

// Cases wait on purpose (timeouts, retries) and the memory cases start a Node process each: allow for a busy machine.
export default defineProject({ test: { name: "hostile-suite", testTimeout: 30_000, hookTimeout: 30_000 } });
