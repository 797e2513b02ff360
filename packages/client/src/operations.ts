import { callThrough, ScraperClient } from "./client.js";
import { ScraperInputError } from "./errors.js";
import { focusedOperations, operations } from "./generated/scraper.operations.js";
import { pageCallOptions } from "./options.js";
import { expectedPrice, type OperationId, type OperationRules } from "./rules.js";
import type { OperationItem, OperationWalkBody, PagedOperationId, RequestBody, RequestOptions, ScraperResult, SuccessData, WalkOptions } from "./types.js";
import { postKey, unseenPost, type Walk, type WalkPage, walkItems, walkPages } from "./walk.js";

/** Every operation of the description, normalized and focused, by operationId. */
const table: Readonly<Record<string, OperationRules>> = { ...operations, ...focusedOperations };

/** The rules of `operationId`, or a `ScraperInputError` naming it. */
function rulesOf(operationId: string, paged = false): OperationRules {
  const rules = typeof operationId === "string" && Object.hasOwn(table, operationId) ? table[operationId] : undefined;
  if (!rules) throw new ScraperInputError("operationId", `"${String(operationId)}" is no operation of the scraper API.`);
  if (paged && !("paging" in rules)) throw new ScraperInputError("operationId", `${rules.operationId} returns no page of items to walk.`);
  return rules;
}

function checkClient(client: unknown, door: string): asserts client is ScraperClient {
  if (!(client instanceof ScraperClient)) throw new ScraperInputError("client", `${door} takes a client made by createScraperClient().`);
}

/**
 * The fetcher of a listing's pages: `body` with the cursor field the description names for the listing set to each
 * page's cursor, sent through `client`'s pipeline with the walk's call options.
 */
function pageFetcher<Data>(client: ScraperClient, rules: OperationRules, body: unknown, options: WalkOptions) {
  if (typeof body !== "object" || body === null) throw new ScraperInputError("body", `${rules.operationId} needs a request body.`);
  const call = pageCallOptions(options);
  const field = "paging" in rules && rules.paging.mode === "cursor" && "request" in rules.paging ? rules.paging.request : undefined;
  return (cursor: string | undefined) => client[callThrough]<Data>(rules, cursor === undefined || field === undefined ? body : { ...body, [field]: cursor }, call);
}

/**
 * One call of any operation of the description by its operationId, with its request body in the description's own
 * field names, through `client`'s pipeline (key, pacing, budget, timeouts, retries, hooks, ledger): what a generic
 * tool (an agent's, a scheduler's) needs where the typed methods name each operation. Resolves `{ data, meta,
 * response }` and throws the client's typed errors, as the methods do.
 */
export function callOperation<Id extends OperationId>(client: ScraperClient, operationId: Id, body?: RequestBody<Id>, options?: RequestOptions): Promise<ScraperResult<SuccessData<Id>>> {
  checkClient(client, "callOperation");
  const rules = rulesOf(operationId);
  if (body === undefined && rules.requestBodyRequired) throw new ScraperInputError("body", `${rules.operationId} needs a request body.`);
  return client[callThrough](rules, body, options);
}

/** The options of `walkOperation`: a walk's, and `onPage`, told each page's result (its `meta`) as it arrives. */
export type OperationWalkOptions<Id extends PagedOperationId> = WalkOptions & { onPage?: ((page: ScraperResult<SuccessData<Id>>) => void) | undefined };

/**
 * The items of any listing of the description (an operation whose answer is a page of items), from `body` (its request
 * without the cursor) on, resumable like `walkPosts` (`resume: walk.state`). A normalized posts listing yields each post
 * once (`id` + `platform`) and keeps its place by `postKey`; the focused listings name no key, so their items come as
 * they come and keep their place by position.
 */
export function walkOperation<Id extends PagedOperationId>(
  client: ScraperClient,
  operationId: Id,
  body: OperationWalkBody<Id>,
  options: OperationWalkOptions<Id> = {},
): Walk<OperationItem<Id>> {
  checkClient(client, "walkOperation");
  const rules = rulesOf(operationId, true);
  const { onPage, ...walkOptions } = options;
  if (onPage !== undefined && typeof onPage !== "function") throw new ScraperInputError("onPage", "onPage must be a function.");
  const fetchEach = pageFetcher<SuccessData<Id>>(client, rules, body, walkOptions);
  const fetchPage = async (cursor: string | undefined) => {
    const page = await fetchEach(cursor);
    onPage?.(page);
    return page;
  };
  const price = expectedPrice(rules, client.accountRate(operationId));
  if (!Object.hasOwn(operations, rules.operationId)) return walkItems(rules, fetchPage, walkOptions, price, walkOptions.signal);
  const posts = walkItems<SuccessData<Id>, { id: string; platform: string }>(rules, fetchPage, walkOptions, price, walkOptions.signal, unseenPost(), postKey);
  return posts as unknown as Walk<OperationItem<Id>>;
}

/** The pages of any listing of the description, with their `meta`, `nextCursor` and items; resumable like `walkOperation`. */
export function walkOperationPages<Id extends PagedOperationId>(
  client: ScraperClient,
  operationId: Id,
  body: OperationWalkBody<Id>,
  options: WalkOptions = {},
): Walk<WalkPage<SuccessData<Id>, OperationItem<Id>>> {
  checkClient(client, "walkOperationPages");
  const rules = rulesOf(operationId, true);
  return walkPages(rules, pageFetcher<SuccessData<Id>>(client, rules, body, options), options, expectedPrice(rules, client.accountRate(operationId)), options.signal);
}

export type { OperationId } from "./rules.js";
export type { OperationItem, OperationWalkBody, PagedOperationId, RequestBody, ScraperResult, SuccessData } from "./types.js";
