import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "release",
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
