import { expect, it } from "vitest";
import { baseSize, decodeCursor, encodeCursor, pageSizes } from "./catalog.js";

const cursor = { mode: "cursor", items: "posts", request: "cursor", response: "next_cursor", pageSize: { max: 30, exact: true } } as const;

it("sizes a nominal catalog in pages of 30, page one overshooting what page two lacks", () => {
  for (let creator = 0; creator < 200; creator++) {
    const total = baseSize(cursor, false, "seed", `creator${creator}`);
    const sizes = pageSizes(cursor, total, "seed", `creator${creator}`);
    expect(total).toBeGreaterThan(0);
    expect(sizes).toHaveLength(Math.ceil(total / 30));
    if (sizes.length > 1) expect((sizes[0] as number) + (sizes[1] as number)).toBe(sizes.length === 2 ? total : 60);
    for (const size of sizes) expect(size).toBeGreaterThan(0);
  }
});

it("always overshoots page one of an `overshoot` catalog", () => {
  for (let creator = 0; creator < 200; creator++) {
    const sizes = pageSizes(cursor, baseSize(cursor, true, `c${creator}`), `c${creator}`);
    expect(sizes[0]).toBeGreaterThan(30);
    expect(sizes[1]).toBeLessThan(30);
  }
});

it("keeps an upper-bound page size and a single page within their bounds, however the catalog grows", () => {
  const single = { mode: "single-page", items: "posts", pageSize: { min: 1, max: 11, exact: false } } as const;
  for (let creator = 0; creator < 200; creator++) {
    const upTo = { ...cursor, pageSize: { max: 30, exact: false } };
    for (const size of pageSizes(upTo, baseSize(upTo, false, `c${creator}`), `c${creator}`)) expect(size).toBeLessThanOrEqual(30);
    const base = baseSize(single, false, `c${creator}`);
    expect(base).toBeGreaterThanOrEqual(1);
    expect(base).toBeLessThanOrEqual(11);
    const [page, ...more] = pageSizes(single, base + creator, `c${creator}`);
    expect(more).toEqual([]);
    expect(page).toBeLessThanOrEqual(11);
  }
});

it("makes an empty catalog one empty page", () => {
  expect(pageSizes(cursor, 0, "anyone")).toEqual([0]);
});

it("reads back its own cursors, and nothing else", () => {
  const next = encodeCursor({ page: 2, total: 70 }, "seed", "alice");
  expect(decodeCursor(next, "seed", "alice")).toEqual({ page: 2, total: 70 });
  expect(decodeCursor(next, "seed", "bob")).toBeUndefined(); // another creator's
  for (const other of [undefined, 3, "", "%%%", Buffer.from('{"page":1.5}').toString("base64url")]) expect(decodeCursor(other, "seed", "alice")).toBeUndefined();
});
