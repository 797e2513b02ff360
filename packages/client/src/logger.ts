// The logger type is shared by every client of the SDK.
export { type Logger, silentLogger } from "@content-scraper/runtime";
