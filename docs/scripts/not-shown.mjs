// Gaps the reference marks "not shown" carry `x-not-shown` (spec/extensions.md). Redoc does not render extensions, so
// each gap's sentence is appended to the description Redoc does render, where the gap is.

/** The note for one gap: "Not documented in v1.3.0: <what>". */
export function notShownNote(version, text) {
  // Surfaces whose reference shows no version say so instead of printing "vnot shown".
  const where = /^\d/.test(String(version)) ? `v${version}` : "the reference";
  return `**Not documented in ${where}:** ${text}`;
}

/** A copy of a bundled description in which every `x-not-shown` node's description ends with its note. */
export function markNotShown(description) {
  const copy = structuredClone(description);
  const version = copy.info?.version;
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== "object") return;
    const gap = node["x-not-shown"];
    if (typeof gap === "string") {
      const note = notShownNote(version, gap);
      node.description = node.description ? `${node.description.trimEnd()}\n\n${note}` : note;
    }
    Object.values(node).forEach(visit);
  };
  visit(copy);
  return copy;
}
