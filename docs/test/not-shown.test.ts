import { describe, expect, it } from "vitest";
import { markNotShown, notDocumented, withoutGapSentences } from "../scripts/not-shown.mjs";
import { surfaces } from "../scripts/site.mjs";

type Node = { [key: string]: unknown };

const descriptions = await surfaces();
/** The callout's words, as plain text. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, "");

/** Every node of a description that marks a gap, and whether it is a server (whose description Redoc shows as text). */
function gaps(node: unknown, found: { node: Node; server: boolean }[] = [], server = false): { node: Node; server: boolean }[] {
  if (node && typeof node === "object") {
    if (typeof (node as Node)["x-not-shown"] === "string") found.push({ node: node as Node, server });
    for (const [key, child] of Object.entries(node)) gaps(child, found, server || key === "servers");
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
    for (const { node, server } of marks) {
      const text = String(node.description);
      // A server's description is shown as text: the note is a sentence there, with no markup.
      const gap = node["x-not-shown"] as string;
      const note = server ? `${textOf(notDocumented(description, gap))}` : notDocumented(description, gap);
      expect(text.endsWith(note), note).toBe(true);
      if (server) expect(text).not.toMatch(/[<`]/);
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

  it("says a server's gap as plain text, which is how Redoc shows a server's description", () => {
    const marked = markNotShown({
      info: { version: "1.3.0" },
      servers: [{ url: "https://{host}/api/v1", description: "Production. Its host is not shown. The default, `api.example.invalid`, never resolves.", "x-not-shown": "The `host`." }],
      paths: { "/a": { servers: [{ url: "https://{host}", description: "Root.", "x-not-shown": "The host." }] } },
    });
    expect(marked.servers[0].description).toBe("Production. The default, api.example.invalid, never resolves. Not documented in v1.3.0: The host.");
    expect(marked.paths["/a"].servers[0].description).toBe("Root. Not documented in v1.3.0: The host.");
  });

  it("drops only the sentences that state a gap", () => {
    expect(withoutGapSentences("Returns the audience. Its fields are not shown in the reference, so both schemas stay open.\n\nAlways 25 credits.")).toBe(
      "Returns the audience.\n\nAlways 25 credits.",
    );
  });
});
