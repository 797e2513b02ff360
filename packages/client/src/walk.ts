import { ScraperAbortError, ScraperError, ScraperInputError, ScraperResponseError } from "./errors.js";
import type { ScraperMeta } from "./meta.js";
import { checkNumber } from "./options.js";
import type { OperationRules } from "./rules.js";
import type { ResponseInfo, ScraperResult } from "./types.js";

/** The de-duplication key of a post: its platform plus the platform's own id (never `postPage`). */
export function postKey(post: { id: string; platform: string }): string {
  return `${post.platform}:${post.id}`;
}

/** Why a walk stopped: its listing ended, a limit of the walk, the caller's abort (or leaving the loop), or an error. */
export type WalkStop = "end" | "maxPages" | "maxCredits" | "aborted" | ScraperError;

/** Where a walk stands: save it, and pass `cursor` back to resume where it was. */
export interface WalkState {
  /**
   * The cursor to resume from once everything yielded so far is stored: the page not yet fetched (a page walk) or
   * the page of the next item (an item walk); `undefined` for the listing's first page, and once the walk has ended.
   */
  cursor: string | undefined;
  /** Pages fetched by this walk. */
  pages: number;
  /** Items yielded (or, for a page walk, carried by the pages yielded). */
  items: number;
  /** Credits the pages charged (`meta.credits_charged`). */
  creditsCharged: number;
  /** `undefined` while the walk runs. */
  stoppedBecause: WalkStop | undefined;
}

/** An async iterator over a listing, with its state readable at every step. Iterate it once. */
export interface Walk<T> extends AsyncGenerator<T, void, undefined> {
  readonly state: Readonly<WalkState>;
}

/** One page of a walk: the call's result, its items, and where it sits in the listing. */
export interface WalkPage<Data, Item> extends ScraperResult<Data> {
  items: Item[];
  /** The cursor that fetched this page (`undefined` for the first). */
  cursor: string | undefined;
  /** The cursor of the next page; `undefined` on the last. */
  nextCursor: string | undefined;
  /** 1 for the first page this walk fetched. */
  pageNumber: number;
}

/** The limits of a walk, and where it starts. */
export interface WalkLimits {
  /** Resume from here: a `state.cursor` saved from an earlier walk (or a page's `nextCursor`). */
  cursor?: string | undefined;
  /** Fetch at most this many pages (a non-negative integer). */
  maxPages?: number | undefined;
  /** Stop before a page whose cost (the last page's charge; at first the description's price) would take the walk past this (a non-negative integer). */
  maxCredits?: number | undefined;
}

type FetchPage<Data> = (cursor: string | undefined) => Promise<ScraperResult<Data>>;

/** An operation's `x-paging`, as codegen put it in the table. */
interface Paging {
  mode: "cursor" | "single-page";
  items: string;
  response?: string;
  hasMore?: string;
}

const pagingOf = (rules: OperationRules): Paging | undefined => ("paging" in rules ? (rules.paging as Paging) : undefined);

/** Checks a walk's options, naming the one that is unusable. */
export function checkWalkLimits(options: WalkLimits): { cursor: string | undefined; maxPages: number; maxCredits: number } {
  const { cursor } = options;
  if (cursor !== undefined && (typeof cursor !== "string" || cursor === "")) {
    throw new ScraperInputError("cursor", "cursor must be a non-empty string: a state.cursor or nextCursor saved from an earlier walk.");
  }
  const unlimited = Number.POSITIVE_INFINITY;
  return { cursor, maxPages: checkNumber("maxPages", options.maxPages, unlimited, { integer: true }), maxCredits: checkNumber("maxCredits", options.maxCredits, unlimited, { integer: true }) };
}

/** A page's items, checked: an array of objects, else a `ScraperResponseError` (never a `TypeError` mid-walk). */
function itemsOf<Item>(rules: OperationRules, data: unknown): Item[] {
  // Walks exist only for operations the description pages (`x-paging`, whose `items` the house rules require).
  const field = (pagingOf(rules) as Paging).items;
  const items: unknown = (data as Record<string, unknown>)[field];
  if (Array.isArray(items) && items.every((item) => typeof item === "object" && item !== null)) return items as Item[];
  const problem = { path: `/data/${field}`, message: `data.${field} is missing or not an array of objects`, keyword: "type" };
  throw new ScraperResponseError(`${rules.operationId} answered with a page whose ${problem.message}`, rules.operationId, 200, [problem]);
}

/** The next page's cursor as the description's paging says, or `undefined` at the end of the listing. */
function nextCursorOf(rules: OperationRules, data: unknown): string | undefined {
  const paging = pagingOf(rules);
  if (paging?.mode !== "cursor" || !paging.response) return undefined;
  const fields = data as Record<string, unknown>;
  if (paging.hasMore && fields[paging.hasMore] !== true) return undefined;
  const next = fields[paging.response];
  return typeof next === "string" && next !== "" ? next : undefined;
}

/** Wraps a generator as a `Walk`: its state readable, and `stoppedBecause` set however it ends. */
function asWalk<T>(state: WalkState, body: () => AsyncGenerator<T, void, undefined>): Walk<T> {
  const generator = (async function* () {
    try {
      yield* body();
    } catch (error) {
      state.stoppedBecause = error instanceof ScraperAbortError ? "aborted" : error instanceof ScraperError ? error : state.stoppedBecause;
      throw error;
    } finally {
      // The caller left the loop early: the walk was abandoned where its state says.
      state.stoppedBecause ??= "aborted";
    }
  })();
  return Object.defineProperty(generator, "state", { get: () => ({ ...state }), enumerable: true }) as Walk<T>;
}

/**
 * The pages of a listing from `state.cursor` on: follows the description's cursor verbatim and stops when it ends
 * (no next cursor, `hasMore` false), never on the page size (first pages overshoot, short pages occur mid-walk);
 * stops before `maxPages` or `maxCredits` would be passed, and on a cursor it already sent (a loop bills forever).
 * The caller moves `state.cursor` on, when its consumer is done with a page.
 */
async function* pages<Data, Item>(
  rules: OperationRules,
  fetchPage: FetchPage<Data>,
  state: WalkState,
  limits: { maxPages: number; maxCredits: number },
  signal: AbortSignal | undefined,
): AsyncGenerator<WalkPage<Data, Item>, void, undefined> {
  let pageCost: number = "credits" in rules ? rules.credits.standard : 0;
  const sent = new Set<string>();
  for (let pageNumber = 1; ; pageNumber++) {
    const limited = pageNumber > limits.maxPages ? "maxPages" : state.creditsCharged + pageCost > limits.maxCredits ? "maxCredits" : undefined;
    if (limited) {
      state.stoppedBecause = limited;
      return;
    }
    if (signal?.aborted) throw new ScraperAbortError(rules.operationId, false, undefined, { cause: signal.reason });
    const cursor = state.cursor;
    if (cursor !== undefined) sent.add(cursor);
    const result = await fetchPage(cursor);
    state.pages++;
    state.creditsCharged += result.meta.creditsCharged;
    pageCost = result.meta.creditsCharged;
    const items = itemsOf<Item>(rules, result.data);
    const next = nextCursorOf(rules, result.data);
    const nextCursor = next !== undefined && !sent.has(next) ? next : undefined;
    yield { ...result, items, cursor, nextCursor, pageNumber };
    if (nextCursor === undefined) {
      state.stoppedBecause ??= "end";
      return;
    }
  }
}

const newState = (cursor: string | undefined): WalkState => ({ cursor, pages: 0, items: 0, creditsCharged: 0, stoppedBecause: undefined });

/** A walk over a listing's pages. Once a page is yielded, `state.cursor` points past it: a checkpoint taken in the loop resumes at the next page. */
export function walkPages<Data, Item>(rules: OperationRules, fetchPage: FetchPage<Data>, options: WalkLimits, signal: AbortSignal | undefined): Walk<WalkPage<Data, Item>> {
  const { cursor, ...limits } = checkWalkLimits(options);
  const state = newState(cursor);
  return asWalk(state, async function* () {
    for await (const page of pages<Data, Item>(rules, fetchPage, state, limits, signal)) {
      state.cursor = page.nextCursor;
      state.items += page.items.length;
      if (page.nextCursor === undefined) state.stoppedBecause = "end";
      yield page;
    }
  });
}

/**
 * A walk over a listing's items, those `isNew` accepts (all of them without it). `state` always says where to resume once
 * every item yielded so far is stored: the cursor moves past a page as its last item is yielded. Save the state after
 * storing each item (or each batch), and a walk resumed from it re-fetches at most the page it was on and loses nothing.
 */
export function walkItems<Data, Item>(
  rules: OperationRules,
  fetchPage: FetchPage<Data>,
  options: WalkLimits,
  signal: AbortSignal | undefined,
  isNew?: (item: Item) => boolean,
): Walk<Item> {
  const { cursor, ...limits } = checkWalkLimits(options);
  const state = newState(cursor);
  return asWalk(state, async function* () {
    for await (const page of pages<Data, Item>(rules, fetchPage, state, limits, signal)) {
      const fresh = isNew ? page.items.filter(isNew) : page.items;
      if (fresh.length === 0) state.cursor = page.nextCursor;
      for (const [index, item] of fresh.entries()) {
        if (index === fresh.length - 1) state.cursor = page.nextCursor;
        state.items++;
        yield item;
      }
    }
  });
}

/** Accepts each post once in a walk, by `postKey`, and none that `stored` has (by id or `postKey`). */
export function unseenPost(stored?: { has(key: string): boolean }): (post: { id: string; platform: string }) => boolean {
  const yielded = new Set<string>();
  return (post) => {
    const key = postKey(post);
    if (yielded.has(key) || stored?.has(post.id) || stored?.has(key)) return false;
    yielded.add(key);
    return true;
  };
}

export type { ResponseInfo, ScraperMeta };
