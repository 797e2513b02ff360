// @content-scraper/spec's version tracks the API version: its major.minor is the scraper
// description's info.version's (patches of the package may fix the description without a new API).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT } from "../src/packages.mjs";

it("spec/package.json version's major.minor equals spec/scraper/openapi.yaml info.version's", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "spec/package.json"), "utf8")) as { version: string };
  const doc = parse(readFileSync(join(ROOT, "spec/scraper/openapi.yaml"), "utf8")) as { info: { version: string } };
  const majorMinor = (v: string) => v.split(".").slice(0, 2).join(".");
  expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+$/);
  expect(majorMinor(pkg.version)).toBe(majorMinor(doc.info.version));
});

it("still holds after `changeset version` applies the pending changesets", async () => {
  const { pendingBumps } = await import("../src/api-diff.mjs");
  const pkg = JSON.parse(readFileSync(join(ROOT, "spec/package.json"), "utf8")) as { version: string };
  const doc = parse(readFileSync(join(ROOT, "spec/scraper/openapi.yaml"), "utf8")) as { info: { version: string } };
  const order = ["patch", "minor", "major"];
  const bump = pendingBumps()
    .map((b) => b.bump)
    .sort((a, b) => order.indexOf(b) - order.indexOf(a))[0];
  const [major = 0, minor = 0, patch = 0] = pkg.version.split(".").map(Number);
  const next =
    bump === "major" ? `${major + 1}.0.0` : bump === "minor" ? `${major}.${minor + 1}.0` : bump === "patch" ? `${major}.${minor}.${patch + 1}` : pkg.version;
  const majorMinor = (v: string) => v.split(".").slice(0, 2).join(".");
  expect(majorMinor(next), `pending changesets would publish ${next} for API ${doc.info.version}`).toBe(majorMinor(doc.info.version));
});
