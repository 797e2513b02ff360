import { expect, it } from "vitest";
import { weigh } from "../bounded.js";
import { type LoggedAnswer, loggedBytes } from "./log.js";

// The log counts an entry as every store does (`weigh`: its key, its JSON and its values), without writing the JSON.
const entries: LoggedAnswer[] = [
  { at: 1_732_000_000_000, surface: "scraper", operation: "shortvideoProfile", method: "POST", path: "/api/v1/scrape/shortvideo/profile", status: 200, creditsCharged: 1, requestId: "req_01M8CD9594WJ84B25MCKG5DDPS" },
  { at: 0, surface: null, operation: null, method: "GET", path: "/nowhere", status: 404, creditsCharged: null, requestId: null },
  { at: -62_167_219_200_001, surface: "platform", operation: null, method: "PATCH", path: '/a"b\\c\u0001\ud800', status: 500, creditsCharged: Number.NaN, requestId: null },
  { at: 253_402_300_800_000, surface: "connect", operation: "x", method: "GET", path: "/caf\u00e9/\u2028", status: 429, creditsCharged: 0, requestId: "req_X" },
];

it.each(entries)("counts an entry at what weigh counts it", (entry) => {
  const { at, ...rest } = entry;
  for (const key of ["1", "123456789"]) expect(loggedBytes(key, entry)).toBe(weigh(key, { time: new Date(at).toISOString(), ...rest }));
});
