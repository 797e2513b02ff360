import { defineConfig } from "vitest/config";

// `pnpm bench`: the memory measures run through vitest (like the suite, they start the TypeScript loopback server);
// each call is measured in a Node process of its own.
export default defineConfig({ test: { include: ["bench/*.measure.ts"], testTimeout: 600_000 } });
