import { defineProject } from "vitest/config";

// Every test drives the built bin as a child process against a sandbox (and a redis-server) it starts itself.
export default defineProject({
  test: {
    name: "cli",
    // Its files mostly wait on child processes, the sandbox and Redis: three at a time, where vitest's default on two
    // cores is one (117 s alone → 73 s; this suite is the longest of `pnpm test`, which the release's tests wait for).
    maxWorkers: 3,
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
