import { checkNumber } from "@content-scraper/runtime";
import { inputError, ScraperAbortError, ScraperError, ScraperInputError, ScraperResponseError } from "./errors.js";
import type { ScraperResult } from "./meta.js";
import type { OperationRules } from "./rules.js";

/** The de-duplication key of a post: its platform plus the platform's own id (never `postPage`). */
export function postKey(post: { id: string; platform: string }): string {
  return `${post.platform}:${post.id}`;
}

/** Why a walk stopped: its listing ended, a limit of the walk, the caller's abort (or leaving the loop), or an error. */
export type WalkStop = "end" | "maxPages" | "maxCredits" | "aborted" | ScraperError;

/** Where a walk stands: save it (it is plain JSON), and pass it back as `resume` to go on exactly where it was. */
export interface WalkState {
  /**
   * The cursor to resume from once everything yielded so far is stored: the page not yet fetched (a page walk) or
   * the page of the next item (an item walk); `undefined` for the listing's first page, and once the walk has ended.
   */
  cursor: string | undefined;
  /**
   * The items of `cursor`'s page already yielded (item walks: each post's `postKey`, else its position on the page):
   * a resume re-fetches that page once and skips them, so no item is yielded twice. Empty between pages.
   */
  taken: string[];
  /** Pages fetched by this walk. */
  pages: number;
  /** Items yielded (or, for a page walk, carried by the pages yielded). */
  items: number;
  /** Credits the pages charged (`meta.credits_charged`). */
  creditsCharged: number;
  /**
   * `undefined` while the walk runs, and `"end"` from the moment the listing's last item is yielded (a resume from that
   * state fetches nothing).
   */
  stoppedBecause: WalkStop | undefined;
}

/** What a resume needs of a saved `WalkState`. */
export type WalkResume = Partial<Pick<WalkState, "cursor" | "taken" | "stoppedBecause">>;

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
  /** Start at this page: a page's `nextCursor` (or a `state.cursor`; `resume` also skips what was taken from it). */
  cursor?: string | undefined;
  /** Go on exactly where a saved `walk.state` was: its page, without the items already taken; nothing after the end. */
  resume?: WalkResume | undefined;
  /** Fetch at most this many pages (a non-negative integer). */
  maxPages?: number | undefined;
  /**
   * Stop before a page whose cost would take the walk past this (a non-negative integer). A page counts at what it
   * charged but never less than the description's price: every page is billed (standard 1 credit), so `maxCredits`
   * also caps the pages at `maxCredits / price`, whatever the answers say.
   */
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

/** A walk's start and limits, checked. */
interface CheckedLimits {
  start: { cursor: string | undefined; taken: string[]; ended: boolean };
  maxPages: number;
  maxCredits: number;
}

/** Checks a walk's options, naming the one that is unusable. */
export function checkWalkLimits(options: WalkLimits): CheckedLimits {
  const { cursor, resume } = options;
  if (cursor !== undefined && (typeof cursor !== "string" || cursor === "")) {
    throw new ScraperInputError("cursor", "cursor must be a non-empty string: a nextCursor or state.cursor saved from an earlier walk.");
  }
  if (resume !== undefined && (typeof resume !== "object" || resume === null)) throw new ScraperInputError("resume", "resume must be a walk.state saved from an earlier walk.");
  if (resume && cursor !== undefined) throw new ScraperInputError("resume", "pass either cursor or resume, not both.");
  if (resume?.cursor !== undefined && (typeof resume.cursor !== "string" || resume.cursor === "")) {
    throw new ScraperInputError("resume.cursor", "resume.cursor must be a non-empty string or undefined.");
  }
  const taken = resume?.taken ?? [];
  if (!Array.isArray(taken) || taken.some((key) => typeof key !== "string")) throw new ScraperInputError("resume.taken", "resume.taken must be an array of strings.");
  const unlimited = Number.POSITIVE_INFINITY;
  return {
    start: { cursor: resume ? resume.cursor : cursor, taken, ended: resume?.stoppedBecause === "end" },
    maxPages: checkNumber("maxPages", options.maxPages, unlimited, { integer: true }, inputError),
    maxCredits: checkNumber("maxCredits", options.maxCredits, unlimited, { integer: true }, inputError),
  };
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
 * stops before `maxPages` or `maxCredits` would be passed (a page counting at least `price`, what the client expects a
 * page to cost, and at least what the last page charged), and on a cursor it
 * already sent (a loop bills forever). The caller moves `state.cursor` on, when its consumer is done with a page.
 */
async function* pages<Data, Item>(
  rules: OperationRules,
  fetchPage: FetchPage<Data>,
  state: WalkState,
  limits: { maxPages: number; maxCredits: number },
  price: number,
  signal: AbortSignal | undefined,
): AsyncGenerator<WalkPage<Data, Item>, void, undefined> {
  let counted = 0;
  let pageCost = price;
  const sent = new Set<string>();
  for (let pageNumber = 1; ; pageNumber++) {
    const limited = pageNumber > limits.maxPages ? "maxPages" : counted + pageCost > limits.maxCredits ? "maxCredits" : undefined;
    if (limited) {
      state.stoppedBecause = limited;
      return;
    }
    checkAborted(rules, signal);
    const cursor = state.cursor;
    if (cursor !== undefined) sent.add(cursor);
    const result = await fetchPage(cursor);
    state.pages++;
    state.creditsCharged += result.meta.creditsCharged;
    pageCost = Math.max(result.meta.creditsCharged, price);
    counted += pageCost;
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

/** The caller's abort, at the next page or item: nothing more is fetched or yielded. */
function checkAborted(rules: OperationRules, signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ScraperAbortError(rules.operationId, false, undefined, { cause: signal.reason });
}

const newState = (cursor: string | undefined): WalkState => ({ cursor, taken: [], pages: 0, items: 0, creditsCharged: 0, stoppedBecause: undefined });

/** A walk's state at its start: where `resume` was (an ended walk stays ended, and fetches nothing). */
function startState({ start }: CheckedLimits): WalkState {
  const state = newState(start.cursor);
  state.taken = [...start.taken];
  if (start.ended) state.stoppedBecause = "end";
  return state;
}

/** A walk over a listing's pages. Once a page is yielded, `state.cursor` points past it: a checkpoint taken in the loop resumes at the next page. */
export function walkPages<Data, Item>(
  rules: OperationRules,
  fetchPage: FetchPage<Data>,
  options: WalkLimits,
  price: number,
  signal: AbortSignal | undefined,
): Walk<WalkPage<Data, Item>> {
  const limits = checkWalkLimits(options);
  const state = startState(limits);
  return asWalk(state, async function* () {
    if (state.stoppedBecause === "end") return;
    for await (const page of pages<Data, Item>(rules, fetchPage, state, limits, price, signal)) {
      state.cursor = page.nextCursor;
      state.taken = [];
      state.items += page.items.length;
      if (page.nextCursor === undefined) state.stoppedBecause = "end";
      yield page;
    }
  });
}

/**
 * A walk over a listing's items, those `isNew` accepts (all of them without it). `state` always says where to resume
 * once every item yielded so far is stored: the page it is on and the items taken from it (`keyOf` each, else its
 * position), until its last item moves the cursor past it; the listing's last item marks the state `"end"`. Save the
 * state after storing each item (or each batch), and a walk resumed from it re-fetches at most the page it was on,
 * yields nothing twice and loses nothing. An abort stops it at the next item.
 */
export function walkItems<Data, Item>(
  rules: OperationRules,
  fetchPage: FetchPage<Data>,
  options: WalkLimits,
  price: number,
  signal: AbortSignal | undefined,
  isNew?: (item: Item) => boolean,
  keyOf?: (item: Item) => string,
): Walk<Item> {
  const limits = checkWalkLimits(options);
  const state = startState(limits);
  return asWalk(state, async function* () {
    if (state.stoppedBecause === "end") return;
    // The items a resumed walk already took from its first page.
    let skip = new Set(state.taken);
    for await (const page of pages<Data, Item>(rules, fetchPage, state, limits, price, signal)) {
      const keyed = page.items.map((item, index) => ({ item, key: keyOf ? keyOf(item) : `#${index}` }));
      const fresh = keyed.filter(({ item, key }) => !skip.has(key) && (isNew ? isNew(item) : true));
      skip = new Set();
      const last = page.nextCursor === undefined;
      if (fresh.length === 0) moveOn(state, page.nextCursor, last);
      for (const [index, { item, key }] of fresh.entries()) {
        checkAborted(rules, signal);
        if (index === fresh.length - 1) moveOn(state, page.nextCursor, last);
        else state.taken = [...state.taken, key];
        state.items++;
        yield item;
      }
    }
  });
}

/** The state past a page whose last item is yielded: the next page's cursor, nothing taken from it, or the end. */
function moveOn(state: WalkState, nextCursor: string | undefined, last: boolean): void {
  state.cursor = nextCursor;
  state.taken = [];
  if (last) state.stoppedBecause = "end";
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

