import { ContentScraperError } from "@content-scraper/runtime";

/** An option of the server, or an argument of a tool, is unusable; `field` names it. Nothing was sent. */
export class McpInputError extends ContentScraperError {
  override name = "McpInputError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}
