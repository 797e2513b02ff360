import { expect, it } from "vitest";
import { requestId } from "./request-id.js";

it("makes ids in the service's format, all different within one millisecond", () => {
  const ids = Array.from({ length: 1000 }, () => requestId(1_732_000_000_000));
  for (const id of ids) expect(id).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
  expect(new Set(ids.map((id) => id.slice(4, 14))).size).toBe(1);
  expect(new Set(ids).size).toBe(ids.length);
});
