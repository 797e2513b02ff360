import { expect, it } from "vitest";
import { decodeCursor, encodeCursor, pageSizes } from "./catalog.js";

const cursor = { mode: "cursor", request: "cursor", response: "next_cursor", pageSize: { max: 30, exact: true } } as const;

it("sizes a nominal catalog in pages of 30, page one overshooting what page two lacks", () => {
  for (let creator = 0; creator < 200; creator++) {
    const sizes = pageSizes(cursor, false, "seed", `creator${creator}`);
    const total = sizes.reduce((sum, size) => sum + size, 0);
    expect(total).toBeGreaterThan(0);
    expect(sizes).toHaveLength(Math.ceil(total / 30));
    if (sizes.length > 1) expect((sizes[0] as number) + (sizes[1] as number)).toBe(sizes.length === 2 ? total : 60);
    for (const size of sizes) expect(size).toBeGreaterThan(0);
  }
});

it("keeps an upper-bound page size and a single page within their bounds", () => {
  for (let creator = 0; creator < 200; creator++) {
    for (const size of pageSizes({ ...cursor, pageSize: { max: 30, exact: false } }, false, `c${creator}`)) expect(size).toBeLessThanOrEqual(30);
    const [single, ...more] = pageSizes({ mode: "single-page", pageSize: { min: 1, max: 11, exact: false } }, false, `c${creator}`);
    expect(more).toEqual([]);
    expect(single).toBeGreaterThanOrEqual(1);
    expect(single).toBeLessThanOrEqual(11);
  }
});

it("makes an empty catalog one empty page", () => {
  expect(pageSizes(cursor, true, "anyone")).toEqual([0]);
});

it("reads back its own cursors and sends anything else to page one", () => {
  const next = encodeCursor(2, "seed", "alice");
  expect(decodeCursor(next, 3, "seed", "alice")).toBe(2);
  expect(decodeCursor(next, 2, "seed", "alice")).toBe(0); // past the end: stale
  expect(decodeCursor(next, 3, "seed", "bob")).toBe(0); // another creator's
  for (const other of [undefined, 3, "", "%%%", Buffer.from('{"page":1.5}').toString("base64url")]) expect(decodeCursor(other, 3, "seed", "alice")).toBe(0);
});
