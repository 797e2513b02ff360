import { outgoingFrom, responseFrom } from "@content-scraper/runtime";
import createClient, { type Client } from "openapi-fetch";
import { ScraperClient, sendThrough } from "./client.js";
import { ScraperInputError } from "./errors.js";
import { focusedOperations, operations } from "./generated/scraper.operations.js";
import type { paths } from "./generated/scraper.types.js";
import type { OperationRules } from "./rules.js";

/**
 * The typed openapi-fetch client of the scraper API, for any path of the description, through `client`'s pipeline:
 * its key, pacing, budget, timeouts, retries, hooks and ledger. Error answers come back as `{ error, response }`; a
 * success that is not the service's envelope throws `ScraperResponseError`, as the methods do. A subpath of its own,
 * so that a script using the methods alone does not bundle openapi-fetch.
 */
export function scraperApi(client: ScraperClient): Client<paths> {
  if (!(client instanceof ScraperClient)) throw new ScraperInputError("client", "scraperApi takes a client made by createScraperClient().");
  return createClient<paths>({
    baseUrl: client.baseUrl,
    // openapi-fetch reads the body itself: it gets a fresh response over the bytes the pipeline read.
    fetch: async (request) => responseFrom(await client[sendThrough](await outgoingFrom(request), rulesFor(client.baseUrl, request.url), request.signal)),
  });
}

/** Every operation by its path: the api door is the one importer of this module. */
const byPath = new Map<string, OperationRules>([...Object.values(operations), ...Object.values(focusedOperations)].map((rules: OperationRules) => [rules.path, rules]));

/** The operation a request addresses (a normalized or a focused one), by its path relative to the base URL. */
function rulesFor(baseUrl: string, url: string): OperationRules | undefined {
  return byPath.get(url.startsWith(baseUrl) ? url.slice(baseUrl.length) : new URL(url).pathname);
}
