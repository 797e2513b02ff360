import { defineProject } from "vitest/config";

// Real sandboxes on loopback: on a busy 2-core machine a start can take seconds, so allow for it.
export default defineProject({ test: { name: "contract-tests", testTimeout: 120_000, hookTimeout: 120_000 } });
