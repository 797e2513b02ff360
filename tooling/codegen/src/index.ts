export * from "./mcp-tools.js";
export * from "./openapi-json-schema.js";
export * from "./operation-table.js";
export * from "./types.js";
export * from "./validators/index.js";
