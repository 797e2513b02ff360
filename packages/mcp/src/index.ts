export { McpInputError } from "./errors.js";
export { type ServeHttpOptions, type HttpServer, serveHttp } from "./http.js";
export { createScraperMcp, type McpSession, type McpToolDefinition, type ScraperMcp, type ScraperMcpOptions } from "./server.js";
export type { Allowance, BudgetFigures } from "./allowance.js";
