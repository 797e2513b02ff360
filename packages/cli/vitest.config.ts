import { defineProject } from "vitest/config";

// Every test drives the built bin as a child process against a sandbox (and a redis-server) it starts itself.
export default defineProject({
  test: {
    name: "cli",
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
