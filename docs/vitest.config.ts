import { defineProject } from "vitest/config";

export default defineProject({ test: { name: "docs", testTimeout: 180_000, hookTimeout: 60_000 } });
