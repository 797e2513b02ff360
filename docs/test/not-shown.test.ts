import { describe, expect, it } from "vitest";
import { notDocumented, withoutGapSentences } from "../scripts/not-shown.mjs";
import { referenceMarkdown } from "../scripts/reference.mjs";
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

describe("the reference pages", () => {
  it.each(descriptions)("note every gap of $api's introduction, servers, tags, paths and operations once, in the description's words", async (surface) => {
    const markdown = referenceMarkdown(surface, { samples: [], guides: [], pagingGuide: undefined });
    const { description } = surface;
    const nodes: Node[] = [description.info, ...(description.servers ?? []), ...(description.tags ?? [])];
    for (const item of Object.values(description.paths ?? {}) as Node[]) {
      nodes.push(item, ...Object.values(item).filter((value): value is Node => Boolean(value && typeof value === "object" && "responses" in (value as Node))));
    }
    const gapsHere = nodes.filter((node) => typeof node?.["x-not-shown"] === "string");
    expect(gapsHere.length).toBeGreaterThan(0);
    for (const node of gapsHere) expect(markdown, String(node["x-not-shown"])).toContain(notDocumented(description, node["x-not-shown"] as string));
    expect(markdown).not.toMatch(/not shown/i);
    expect(gaps(description).length).toBeGreaterThan(0);
  });

  it("state the gap in a callout that names the version, or none where the surface has no documented version", () => {
    expect(notDocumented({ info: { version: "1.3.0" } }, "Its `fields`.")).toBe('<div class="not-documented" role="note"><strong>Not documented in v1.3.0:</strong> Its <code>fields</code>.</div>');
    expect(notDocumented({ info: { version: "not shown" } }, "Its version.")).toBe('<div class="not-documented" role="note"><strong>Not documented:</strong> Its version.</div>');
  });

  it("drop only the sentences that state a gap", () => {
    expect(withoutGapSentences("Returns the audience. Its fields are not shown in the reference, so both schemas stay open.\n\nAlways 25 credits.")).toBe(
      "Returns the audience.\n\nAlways 25 credits.",
    );
  });
});
