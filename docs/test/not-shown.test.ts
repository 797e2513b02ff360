import { describe, expect, it } from "vitest";
import { markNotShown, notDocumented, withoutGapSentences } from "../scripts/not-shown.mjs";
import { surfaces } from "../scripts/site.mjs";

type Node = { [key: string]: unknown };

const descriptions = await surfaces();

/** Every node of a description that marks a gap. */
function gaps(node: unknown, found: Node[] = []): Node[] {
  if (node && typeof node === "object") {
    if (typeof (node as Node)["x-not-shown"] === "string") found.push(node as Node);
    for (const child of Object.values(node)) gaps(child, found);
  }
  return found;
}

describe("markNotShown", () => {
  it.each(descriptions)("notes every gap of $api once, as a callout, where Redoc renders its description, on a copy", ({ description }) => {
    const original = JSON.stringify(description);
    const marked = markNotShown(description);
    expect(JSON.stringify(description)).toBe(original);
    const marks = gaps(marked);
    expect(marks.length).toBe(gaps(description).length);
    for (const node of marks) {
      const note = notDocumented(description, node["x-not-shown"] as string);
      const text = String(node.description);
      expect(text.endsWith(note), note).toBe(true);
      expect(text.split("Not documented").length - 1, `one note: ${text}`).toBe(1);
      expect(text).not.toMatch(/not shown/i);
    }
  });

  it("states the gap once, in a callout that names the version, or none where the surface has no documented version", () => {
    const marked = markNotShown({
      info: { version: "1.3.0" },
      components: { schemas: { Audience: { type: "object", description: "Audience by country. Its fields are not shown in the reference.", "x-not-shown": "Its `fields`." } } },
    });
    expect(marked.components.schemas.Audience.description).toBe(
      'Audience by country.\n\n<div class="not-documented" role="note"><strong>Not documented in v1.3.0:</strong> Its <code>fields</code>.</div>',
    );
    expect(notDocumented({ info: { version: "not shown" } }, "Its version.")).toBe('<div class="not-documented" role="note"><strong>Not documented:</strong> Its version.</div>');
  });

  it("drops only the sentences that state a gap", () => {
    expect(withoutGapSentences("Returns the audience. Its fields are not shown in the reference, so both schemas stay open.\n\nAlways 25 credits.")).toBe(
      "Returns the audience.\n\nAlways 25 credits.",
    );
  });
});
