import { callThrough, ScraperClient } from "./client.js";
import { ScraperInputError } from "./errors.js";
import { focusedOperations } from "./generated/scraper.operations.js";
import { pageCallOptions } from "./options.js";
import type { FocusedClient, FocusedPlatform, RequestOptions, WalkOptions } from "./types.js";
import { walkItems, walkPages } from "./walk.js";

const camelCase = (resource: string) => resource.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/**
 * A platform's focused operations (the ones the description tags `Focused: <platform>`), in the platform's own field
 * names, named after their path (`search-suggestions` → `searchSuggestions`), with walks over its cursor listings
 * (`walkFavorites`, `walkFavoritesPages`, …). Every call goes through `client`'s pipeline: its key, pacing, budget,
 * timeouts, retries, hooks and ledger, and its `withOptions` defaults. A subpath of its own, so that a script using
 * the normalized methods alone does not bundle them.
 */
export function focusedClient<P extends FocusedPlatform>(client: ScraperClient, platform: P): FocusedClient<P> {
  if (!(client instanceof ScraperClient)) throw new ScraperInputError("client", "focusedClient takes a client made by createScraperClient().");
  const all = Object.values(focusedOperations);
  const operations = all.filter((rules) => rules.platform === platform);
  if (operations.length === 0) {
    const platforms = [...new Set(all.map((rules) => rules.platform))].join(", ");
    throw new ScraperInputError("platform", `platform "${String(platform)}" has no focused operations; expected one of ${platforms}.`);
  }
  const methods: Record<string, unknown> = {};
  for (const rules of operations) {
    const name = camelCase(rules.resource);
    methods[name] = (body?: unknown, options?: RequestOptions) => {
      if (body === undefined && rules.requestBodyRequired) throw new ScraperInputError("body", `${rules.operationId} needs a request body.`);
      return client[callThrough](rules, body, options);
    };
    const paging = "paging" in rules ? rules.paging : undefined;
    if (paging?.mode !== "cursor" || !paging.request) continue;
    const field = paging.request;
    const walkName = `walk${name[0]?.toUpperCase()}${name.slice(1)}`;
    const page = (body: unknown, options: WalkOptions = {}) => {
      if (typeof body !== "object" || body === null) throw new ScraperInputError("body", `${rules.operationId} needs a request body.`);
      const call = pageCallOptions(options);
      return (cursor: string | undefined) => client[callThrough](rules, cursor === undefined ? body : { ...body, [field]: cursor }, call);
    };
    methods[walkName] = (body: unknown, options: WalkOptions = {}) => walkItems(rules, page(body, options), options, options.signal);
    methods[`${walkName}Pages`] = (body: unknown, options: WalkOptions = {}) => walkPages(rules, page(body, options), options, options.signal);
  }
  return Object.freeze(methods) as FocusedClient<P>;
}

export type { FocusedClient, FocusedItem, FocusedMethod, FocusedOperationId, FocusedPlatform, FocusedWalkBody } from "./types.js";
