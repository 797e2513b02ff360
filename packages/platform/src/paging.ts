/** One page of an OAuth list endpoint: `data`, `nextCursor` (null when `hasMore` is false) and `hasMore`. */
export interface CursorPage<Item> {
  data: Item[];
  nextCursor?: string | null | undefined;
  hasMore: boolean;
}

/** Whether `value` has a cursor page's shape: an object with a `data` array and a boolean `hasMore`. */
export function isCursorPage(value: unknown): value is CursorPage<unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const page = value as Partial<CursorPage<unknown>>;
  return Array.isArray(page.data) && typeof page.hasMore === "boolean";
}

/**
 * Every item of an OAuth list, page by page: the first request without a cursor, each later one with the previous
 * `nextCursor` verbatim (it is opaque), until `hasMore` is false. A page that says `hasMore` without a cursor, or a
 * cursor already followed (which would loop forever), also ends the walk.
 */
export async function* cursorItems<Item>(fetchPage: (cursor: string | undefined) => Promise<CursorPage<Item>>): AsyncGenerator<Item> {
  const followed = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.data;
    const next = page.nextCursor;
    if (page.hasMore !== true || typeof next !== "string" || next === "" || followed.has(next)) return;
    followed.add(next);
    cursor = next;
  }
}

/** One page of a key-based list endpoint: `data`, `page`, `total`, and on some lists `limit` or `totalPages`. */
export interface PageList<Item> {
  data: Item[];
  page: number;
  total: number;
  limit?: number | undefined;
  totalPages?: number | undefined;
}

/**
 * Every item of a key-based list, asking for page 1, 2, … (with `limit` items each when given; else the service's
 * default page size). It stops after an empty page, after `totalPages` when the list returns it, and once
 * `page × limit ≥ total` (the list's own `limit` when it returns one) or, with no limit known, once `total` items came.
 */
export async function* pageItems<Item>(fetchPage: (page: number) => Promise<PageList<Item>>, limit?: number): AsyncGenerator<Item> {
  let seen = 0;
  for (let requested = 1; ; requested++) {
    const list = await fetchPage(requested);
    yield* list.data;
    seen += list.data.length;
    const page = Number.isInteger(list.page) ? list.page : requested;
    if (list.data.length === 0) return;
    if (typeof list.totalPages === "number" && page >= list.totalPages) return;
    const size = list.limit ?? limit;
    if (size === undefined ? seen >= list.total : page * size >= list.total) return;
  }
}
