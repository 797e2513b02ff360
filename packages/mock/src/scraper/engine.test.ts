// The answers the build prepared are Prism's own, whatever the request's body (static answers do not read it), and a
// description that is not the one the build prepared is prepared afresh at start.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { surfaces } from "../mounts.js";
import { createEngine } from "./engine.js";
import { preparedDescription, preparedUrl } from "./prepared.js";
import { ask, jsonHeaders, loadPrism, mockingInstance } from "./prism-calls.js";

const served = surfaces.filter(({ name }) => name !== "connect");

describe.each(served)("the $name description", ({ description }) => {
  it("was prepared by the build, and its answers are Prism's to a request with a body", async () => {
    const prepared = await preparedDescription(description);
    expect(prepared).toEqual(JSON.parse(readFileSync(preparedUrl(description), "utf8")));
    expect(prepared.answers.length).toBeGreaterThan(0);
    const engine = await createEngine(description);
    const prism = mockingInstance(await loadPrism());
    for (const operation of engine.operations.values()) {
      const body = (operation.request?.body?.contents?.[0]?.examples?.[0] as { value?: unknown } | undefined)?.value;
      const request = { headers: jsonHeaders, body };
      const live = await ask(prism, operation, request, { dynamic: false });
      expect(await engine.answer(operation, request, { dynamic: false }), operation.iid).toEqual(live);
    }
  });
});

describe("a description the build did not prepare", () => {
  const folder = mkdtempSync(join(tmpdir(), "prepared-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("is prepared at start, from its own text", async () => {
    const [{ description }] = served as [(typeof served)[number]];
    const built = await preparedDescription(description);
    // The same document, written otherwise: another text, so another digest than the one the build prepared.
    const copy = join(folder, basename(description));
    writeFileSync(copy, JSON.stringify(JSON.parse(readFileSync(description, "utf8")), null, 1));
    const fresh = await preparedDescription(copy);
    expect(fresh.digest).not.toBe(built.digest);
    expect(fresh.operations).toEqual(built.operations);
  });
});
