import { describe, expect, it } from "vitest";
import { markNotShown, notShownNote } from "../scripts/not-shown.mjs";
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
  it.each(descriptions)("notes every gap of $api where Redoc renders its description, on a copy", ({ description }) => {
    const original = JSON.stringify(description);
    const marked = markNotShown(description);
    expect(JSON.stringify(description)).toBe(original);
    const marks = gaps(marked);
    expect(marks.length).toBe(gaps(description).length);
    for (const node of marks) {
      const note = notShownNote(marked.info.version, node["x-not-shown"]);
      expect(String(node.description).endsWith(note), note).toBe(true);
    }
  });

  it("adds a description where there was none, and names the version or, without one, the reference", () => {
    const marked = markNotShown({ info: { version: "1.3.0" }, components: { schemas: { Audience: { type: "object", "x-not-shown": "Its fields." } } } });
    expect(marked.components.schemas.Audience.description).toBe("**Not documented in v1.3.0:** Its fields.");
    expect(notShownNote("not shown", "Its version.")).toBe("**Not documented in the reference:** Its version.");
  });
});
