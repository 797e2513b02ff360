// The breaking-change gate on seeded edits. Each edit in test/seeded-edits/<api>.json is a small JSON Patch applied to a
// copy of spec/dist/<api>.json, named and marked breaking or benign. The gate, the same code as the check of the built
// descriptions (diffDescriptions, then gateBreaking with the pending changesets' corrections, as a release has them),
// must flag every breaking edit and pass every benign one: a correction written for one change covers no edit of
// another kind, nor the same pointer on another surface. An edit may also name the change that a pending correction at
// one of its pointers acknowledges (`acknowledged`), of the same kind but with another value before or after: the
// correction line the gate's report writes for that change is pending beside the edit, and must not cover it. Its catch
// rate per surface, and api-smart-diff's own without the rules on top, are in tooling/release/README.md and the root
// README, which must agree.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { DIST_DIR, diffDescriptions, gateBreaking, pendingCorrections } from "../src/api-diff.mjs";
import { type Change, correctionLine, parseCorrections } from "../src/corrections.mjs";
import { applyPatch, type PatchOperation } from "../src/json-pointer.mjs";
import { ROOT } from "../src/packages.mjs";

type Edit = { name: string; kind: string; patch: PatchOperation[]; acknowledged?: Change };
type Seeded = { breaking: Edit[]; benign: Edit[] };

/** At least 40 breaking edits per surface; connect shows no operation, so README.md says which of its facts they change. */
const MIN_BREAKING = { scraper: 40, platform: 40, "platform-legacy": 40, connect: 40 } as const;
const MIN_BENIGN = 20;
/** Where the catch rates are stated (the root README indents its table in a list). */
const READMES = [join(ROOT, "tooling/release/README.md"), join(ROOT, "README.md")];

const rows: string[] = [];
const { corrections } = pendingCorrections();
/** The correction line the report writes for the change an edit names as acknowledged, parsed as a changeset's. */
const correctionOf = (api: string, edit: Edit) => parseCorrections(edit.acknowledged ? [{ file: `seeded-edits/${api}.json`, text: correctionLine(api, edit.acknowledged) }] : []);

for (const [api, minimum] of Object.entries(MIN_BREAKING)) {
  describe(`${api}: seeded edits`, () => {
    const base = JSON.parse(readFileSync(join(DIST_DIR, `${api}.json`), "utf8"));
    const seeded: Seeded = JSON.parse(readFileSync(join(import.meta.dirname, "seeded-edits", `${api}.json`), "utf8"));
    const all = [...seeded.breaking, ...seeded.benign];

    it(`has at least ${minimum} breaking and ${MIN_BENIGN} benign edits, each named once, each changing the description`, () => {
      expect(seeded.breaking.length).toBeGreaterThanOrEqual(minimum);
      expect(seeded.benign.length).toBeGreaterThanOrEqual(MIN_BENIGN);
      expect(new Set(all.map((e) => e.name)).size).toBe(all.length);
      for (const edit of all) {
        expect(edit.kind, edit.name).toMatch(/\S/);
        expect(applyPatch(base, edit.patch), edit.name).not.toEqual(base);
      }
    });

    it("names, beside an edit, only a change of the same pointer and kind as one of its breaking changes, with other values", () => {
      for (const edit of all.filter((e) => e.acknowledged)) {
        const acknowledged = edit.acknowledged as Change;
        expect(correctionOf(api, edit), edit.name).toMatchObject({ corrections: [{ surface: api, pointer: acknowledged.path }], malformed: [] });
        const changes = diffDescriptions(base, applyPatch(base, edit.patch));
        const alike = changes.filter((c) => c.type === "breaking" && c.path === acknowledged.path && c.action === acknowledged.action && c.rule === acknowledged.rule);
        expect(alike.length, edit.name).toBeGreaterThan(0);
        for (const c of alike) expect(isDeepStrictEqual([c.before, c.after], [acknowledged.before, acknowledged.after]), edit.name).toBe(false);
      }
    });

    it("the gate flags every breaking edit and passes every benign one", () => {
      const judged = (edit: Edit) => {
        const changes = diffDescriptions(base, applyPatch(base, edit.patch));
        const gate = gateBreaking(changes, { surface: api, corrections: [...corrections, ...correctionOf(api, edit).corrections] }).length > 0;
        return { edit, changes, gate, differ: changes.some((c) => c.differ === "breaking") };
      };
      const breaking = seeded.breaking.map(judged);
      const benign = seeded.benign.map(judged);
      const count = (list: typeof breaking, flagged: boolean, by: "gate" | "differ") => list.filter((j) => j[by] === flagged).length;
      rows.push(
        `| ${api} | ${count(breaking, true, "gate")}/${breaking.length} | ${count(breaking, true, "differ")}/${breaking.length} | ` +
          `${count(benign, false, "gate")}/${benign.length} | ${count(benign, false, "differ")}/${benign.length} |`,
      );
      const missed = [...breaking.filter((j) => !j.gate), ...benign.filter((j) => j.gate)].map(
        (j) => `${j.edit.name}: ${j.changes.map((c) => `${c.type} ${c.description}`).join("; ") || "no change seen"}`,
      );
      expect(missed).toEqual([]);
    });
  });
}

it("tooling/release/README.md and the root README state the catch rates of this run", () => {
  expect(rows).toHaveLength(Object.keys(MIN_BREAKING).length);
  const table = [
    "| Surface | Breaking edits flagged | by api-smart-diff alone | Benign edits passed | by api-smart-diff alone |",
    "|---|---|---|---|---|",
    ...rows,
  ].join("\n");
  console.log(table);
  for (const readme of READMES) {
    const text = readFileSync(readme, "utf8").split("\n").map((line) => line.trim()).join("\n");
    expect(text, readme).toContain(table);
  }
});
