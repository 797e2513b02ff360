import { defineProject } from "vitest/config";

// Real servers and child processes: on a busy 2-core machine a start can take seconds, so allow for it.
export default defineProject({ test: { name: "mock", testTimeout: 30_000, hookTimeout: 30_000 } });
