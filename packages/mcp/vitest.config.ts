import { defineProject } from "vitest/config";

// The tests drive the built bin (stdio, Streamable HTTP) and the server in-process with the SDK's own client, against
// sandboxes (and a redis-server) they start on loopback themselves.
export default defineProject({
  test: {
    name: "mcp",
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
