import { expect, it } from "vitest";
import { parsePrefer } from "./prefer.js";

it.each([
  [undefined, {}],
  ["code=404", { code: 404 }],
  ['code=200, example="ShortvideoProfile"', { code: 200, exampleKey: "ShortvideoProfile" }],
  ["dynamic=true; code=502", { dynamic: true, code: 502 }],
  ["respond-async, wait=10", {}],
])("reads %s", (header, preferences) => {
  expect(parsePrefer(header)).toEqual({ ok: true, preferences });
});

it.each(["code=40", "code=abc", "code=600", "dynamic=yes", "example="])("refuses %s", (header) => {
  expect(parsePrefer(header).ok).toBe(false);
});
