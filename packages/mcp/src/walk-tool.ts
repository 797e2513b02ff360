import type { ScraperClient, ScraperMeta } from "@content-scraper/client";
import { type PagedOperationId, walkOperation } from "@content-scraper/client/operations";
import { argumentsObject, choiceArgument, integerArgument, isObject, stringArgument, stringsArgument } from "./arguments.js";
import type { Operation } from "./catalog.js";
import type { McpToolDefinition } from "./server.js";
import { McpInputError } from "./errors.js";
import { checkedBody } from "./operation-tool.js";
import { project } from "./projection.js";
import { decodeResume, encodeResume } from "./resume-token.js";

export const walkToolName = "walk";

/** The most pages one call of the tool fetches: one answer stays small enough for an agent's context. */
export const maxPagesPerCall = 20;
const maxFields = 50;

/** The walk tool, over the listings `--allow` lets through (operations with `x-paging`). */
export function walkToolDefinition(listings: readonly Operation[]): McpToolDefinition {
  return {
    name: walkToolName,
    title: "Walk a listing a page at a time",
    description:
      "Reads a listing (a creator's posts, a focused list) a page at a time, each item once. Each page is one call of its operation, at that tool's price. " +
      "The answer has the items and, until the listing ends, `resume`: pass it back alone to go on exactly where this call stopped, with no item twice and none skipped. " +
      "`maxPages` (default 1) and `maxItems` limit this call; stopping inside a page fetches that page again on resume, billed again. " +
      "`fields` keeps only those fields of each item (dot paths such as `statistics.play_count`).",
    inputSchema: {
      type: "object",
      properties: {
        operation: { type: "string", enum: listings.map(({ rules }) => rules.operationId), description: "The listing to walk (its tool describes it)." },
        arguments: { type: "object", description: "The operation's arguments, as its own tool takes them, without the cursor: {\"username\": \"creator\"}." },
        resume: { type: "string", description: "The resume token of the previous call, verbatim: continues that walk (give nothing else but limits)." },
        maxPages: { type: "integer", minimum: 1, maximum: maxPagesPerCall, default: 1, description: "Pages to fetch in this call." },
        maxItems: { type: "integer", minimum: 1, description: "Items to return in this call at most." },
        fields: { type: "array", items: { type: "string", minLength: 1 }, minItems: 1, maxItems: maxFields, description: "Keep only these fields of each item." },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: true },
  };
}

/** What one call of the walk tool answers, and the error it stopped on (its items are kept, and `resume` goes on). */
export interface WalkAnswer {
  structured: Record<string, unknown>;
  stoppedOn: unknown;
}

/** The walk's body: the operation's arguments without the cursor, which the walk sends; checked against the request schema. */
function walkBody(listing: Operation, given: unknown): Record<string, unknown> {
  const body = given === undefined ? {} : given;
  if (!isObject(body)) throw new McpInputError("arguments", "arguments must be an object: the operation's arguments, without the cursor.");
  const cursorField = listing.rules.paging?.request;
  if (cursorField && Object.hasOwn(body, cursorField)) {
    throw new McpInputError(`arguments.${cursorField}`, `the walk sends ${cursorField} itself: pass the previous answer's resume token to go on.`);
  }
  return checkedBody(listing.rules.operationId, body) as Record<string, unknown>;
}

/**
 * One call of the walk tool: from the listing's start, or exactly where `resume` says (the client's walk state), for at
 * most `maxPages` pages and `maxItems` items, through the session's client (its allowance refuses a page it cannot pay).
 */
export async function walkTool(client: ScraperClient, listings: ReadonlyMap<string, Operation>, args: unknown, signal: AbortSignal): Promise<WalkAnswer> {
  const input = argumentsObject(args);
  const token = stringArgument("resume", input.resume);
  const point = token === undefined ? undefined : decodeResume(token);
  if (point && ((input.operation !== undefined && input.operation !== point.operation) || input.arguments !== undefined)) {
    throw new McpInputError("resume", "resume continues the walk it came from: pass it without operation and arguments.");
  }
  const operationId = choiceArgument(point ? "resume" : "operation", point?.operation ?? input.operation, [...listings.keys()]);
  const listing = listings.get(operationId) as Operation;
  const body = point?.arguments ?? walkBody(listing, input.arguments);
  const maxPages = integerArgument("maxPages", input.maxPages, 1, 1, maxPagesPerCall);
  const maxItems = integerArgument("maxItems", input.maxItems, undefined, 1);
  const fields = stringsArgument("fields", input.fields, maxFields);
  let meta: ScraperMeta | undefined;
  const walk = walkOperation(client, operationId as PagedOperationId, body as never, {
    resume: point && { cursor: point.cursor, taken: point.taken },
    maxPages,
    signal,
    onPage: (page) => {
      meta = page.meta;
    },
  });
  const items: unknown[] = [];
  let stoppedOn: unknown;
  try {
    for await (const item of walk) {
      items.push(fields ? project(item, fields) : item);
      if (maxItems !== undefined && items.length >= maxItems) break;
    }
  } catch (error) {
    stoppedOn = error;
  }
  const { cursor, taken, pages, creditsCharged, stoppedBecause } = walk.state;
  const done = stoppedBecause === "end";
  const resume = done ? undefined : encodeResume({ operation: operationId, arguments: body, cursor, taken });
  const structured = { operation: operationId, items, done, ...(resume ? { resume } : {}), walk: { pages, items: items.length, creditsCharged }, ...(meta ? { meta } : {}) };
  return { structured, stoppedOn };
}
