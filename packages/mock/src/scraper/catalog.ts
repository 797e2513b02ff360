import { hash, pick } from "../hash.js";
import type { OperationRules } from "./rules.js";

// Catalogs that end, and grow. Every creator has a deterministic catalog when the sandbox starts (its size follows from
// the seed, the platform and the handle); new posts appear at the front of page one as sandbox time passes, as the
// reference says. Listings serve it page by page behind opaque cursors, as the description's `x-paging` says; a walk
// keeps the catalog as it was on its first page, so posts that appear meanwhile move nothing under it.

type Paging = NonNullable<OperationRules["paging"]>;

/** The handle a catalog belongs to: without the optional `@`, case-insensitive. */
export function handleOf(username: string): string {
  return username.replace(/^@/, "").toLowerCase();
}

/**
 * Posts in a creator's catalog when the sandbox starts: up to three and a half pages on cursor platforms, within the
 * documented bounds on single-page ones. `overshoot` (a magic input) asks for at least a page and a few more posts, so
 * that page one overshoots where the page size is nominal.
 */
export function baseSize(paging: Paging, overshoot: boolean, ...identity: string[]): number {
  const size = paging.pageSize;
  if (!size) return 0;
  if (paging.mode === "single-page") return pick(size.min ?? 1, size.max, ...identity, "size");
  return pick(overshoot ? size.max + 4 : 1, Math.floor(3.5 * size.max), ...identity, "size");
}

/**
 * Page sizes of a catalog of `total` posts. Cursor platforms page at the nominal size; where it is nominal (`exact`),
 * page one overshoots and page two falls short by the same few posts, as the reference warns walkers. Single-page
 * platforms show the newest posts, within the documented bound. An empty catalog is one empty page.
 */
export function pageSizes(paging: Paging, total: number, ...identity: string[]): number[] {
  const size = paging.pageSize;
  if (total === 0 || !size) return [0];
  if (paging.mode === "single-page") return [Math.min(total, size.max)];
  const sizes = Array.from({ length: Math.ceil(total / size.max) }, (_, page) => Math.min(size.max, total - page * size.max));
  const shift = pick(1, 3, ...identity, "shift");
  if (size.exact && sizes.length > 1 && (sizes[1] as number) > shift) {
    sizes[0] = (sizes[0] as number) + shift;
    sizes[1] = (sizes[1] as number) - shift;
  }
  return sizes;
}

/** Number of pages of a focused listing (`has_more` paging), 1 to 3. */
export function focusedPages(...identity: string[]): number {
  return pick(1, 3, ...identity, "pages");
}

/** Where a cursor points: a page of the catalog as it was when the walk began (`total` posts). */
export interface Position {
  page: number;
  total?: number;
}

/** An opaque cursor, bound to the catalog it came from. */
export function encodeCursor(position: Position, ...identity: string[]): string {
  return Buffer.from(JSON.stringify({ ...position, of: hash(...identity).toString(36) })).toString("base64url");
}

/**
 * Where a cursor the sandbox issued for this catalog points, or `undefined` for any other value. A stale or
 * unrecognised cursor is not an error, the reference says: a billed page comes back that is not where the client
 * meant to be (the sandbox serves page one).
 */
export function decodeCursor(cursor: unknown, ...identity: string[]): Position | undefined {
  if (typeof cursor !== "string") return undefined;
  try {
    const { page, total, of } = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { page?: unknown; total?: unknown; of?: unknown };
    if (of !== hash(...identity).toString(36) || !Number.isSafeInteger(page) || (page as number) < 1) return undefined;
    if (total !== undefined && !Number.isSafeInteger(total)) return undefined;
    return { page: page as number, ...(total === undefined ? {} : { total: total as number }) };
  } catch {
    return undefined;
  }
}
