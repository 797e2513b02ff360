import { ScraperClient } from "./client.js";
import { ScraperInputError } from "./errors.js";
import { focusedOperations } from "./generated/scraper.operations.js";
import { callOperation, walkOperation, walkOperationPages } from "./operations.js";
import type { FocusedClient, FocusedPlatform, RequestOptions, WalkOptions } from "./types.js";

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
    methods[name] = (body?: never, options?: RequestOptions) => callOperation(client, rules.operationId, body, options);
    const paging = "paging" in rules ? rules.paging : undefined;
    if (paging?.mode !== "cursor" || !paging.request) continue;
    const walkName = `walk${name[0]?.toUpperCase()}${name.slice(1)}`;
    methods[walkName] = (body: never, options?: WalkOptions) => walkOperation(client, rules.operationId as never, body, options);
    methods[`${walkName}Pages`] = (body: never, options?: WalkOptions) => walkOperationPages(client, rules.operationId as never, body, options);
  }
  return Object.freeze(methods) as FocusedClient<P>;
}

export type { FocusedClient, FocusedItem, FocusedMethod, FocusedOperationId, FocusedPlatform, FocusedWalkBody } from "./types.js";
