import { hash, pick } from "../hash.js";
import type { OperationRules } from "./rules.js";

// Catalogs that end. Every creator has a deterministic catalog (its size follows from the seed, the platform and the
// handle); listing operations serve it page by page behind opaque cursors, as the description's `x-paging` says.

type Paging = NonNullable<OperationRules["paging"]>;

/** The handle a catalog belongs to: without the optional `@`, case-insensitive. */
export function handleOf(username: string): string {
  return username.replace(/^@/, "").toLowerCase();
}

/**
 * Page sizes of a creator's posts catalog. Cursor platforms get up to a few pages of the nominal size; where the size is
 * nominal (`exact`), page one overshoots and page two falls short by the same few posts, as the reference warns walkers.
 * Single-page platforms get one page within the documented bounds. An empty catalog is one empty page.
 */
export function pageSizes(paging: Paging, empty: boolean, ...identity: string[]): number[] {
  const size = paging.pageSize;
  if (empty || !size) return [0];
  if (paging.mode === "single-page") return [pick(size.min ?? 1, size.max, ...identity, "size")];
  const total = pick(1, Math.floor(3.5 * size.max), ...identity, "size");
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

/** An opaque cursor: the page it points at, bound to the catalog it came from. */
export function encodeCursor(page: number, ...identity: string[]): string {
  return Buffer.from(JSON.stringify({ page, of: hash(...identity).toString(36) })).toString("base64url");
}

/**
 * The page a cursor points at. A stale or unrecognised cursor is not an error, the reference says: a billed page comes
 * back that is not where the client meant to be. The sandbox serves page one.
 */
export function decodeCursor(cursor: unknown, pages: number, ...identity: string[]): number {
  if (typeof cursor !== "string") return 0;
  try {
    const { page, of } = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { page?: unknown; of?: unknown };
    const valid = of === hash(...identity).toString(36) && Number.isInteger(page) && (page as number) > 0 && (page as number) < pages;
    return valid ? (page as number) : 0;
  } catch {
    return 0;
  }
}
