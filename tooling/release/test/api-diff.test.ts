// Breaking-change detection: the build against the description as last released, and the policy
// (a breaking change needs a major changeset for @content-scraper/spec), exercised on a fixture.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkApiChanges, DIST_DIR, RELEASED_DIR, releasedApis } from "../src/api-diff.mjs";
import { CONTRACT_EXTENSIONS } from "../src/contract-extensions.mjs";
import { ROOT, tempDir } from "../src/packages.mjs";

const REPORT = join(ROOT, "tooling/release/test-artifacts/api-changes.md");

it("has a released baseline for every built description", () => {
  expect(releasedApis()).toEqual(["connect", "platform", "platform-legacy", "scraper"]);
});

it("knows every extension the built descriptions use as a rule the clients read, or as x-not-shown (prose)", () => {
  const used = new Set<string>();
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith("x-")) used.add(key);
      walk(value);
    }
  };
  for (const api of releasedApis()) walk(JSON.parse(readFileSync(join(DIST_DIR, `${api}.json`), "utf8")));
  expect(CONTRACT_EXTENSIONS.has("x-credits")).toBe(true);
  expect([...used].filter((name) => name !== "x-not-shown" && !CONTRACT_EXTENSIONS.has(name))).toEqual([]);
});

it("the built descriptions make no breaking change without a major changeset for @content-scraper/spec", () => {
  const { ok, report } = checkApiChanges();
  mkdirSync(join(REPORT, ".."), { recursive: true });
  writeFileSync(REPORT, report);
  console.log(report);
  console.log(`(written to ${REPORT})`);
  expect(ok, report).toBe(true);
});

it("reads a new description of a component response as prose, not as a breaking change", () => {
  const dir = tempDir("api-diff-prose");
  try {
    for (const d of ["released", "dist", "changesets"]) mkdirSync(join(dir, d));
    copyFileSync(join(RELEASED_DIR, "scraper.json"), join(dir, "released", "scraper.json"));
    const doc = JSON.parse(readFileSync(join(RELEASED_DIR, "scraper.json"), "utf8"));
    doc.components.responses.RateLimited.description = "Reworded for integrators.";
    writeFileSync(join(dir, "dist", "scraper.json"), JSON.stringify(doc));
    const result = checkApiChanges({ distDir: join(dir, "dist"), releasedDir: join(dir, "released"), changesetDir: join(dir, "changesets") });
    expect(result.breaking).toEqual([]);
    // The component is compared where it is used: every 429 that refers to it, each read by the prose rule.
    expect(result.report).toContain("annotation (the prose rule): [Replaced] annotation (description) of Response 429 (#/paths/~1scrape~1shortvideo~1profile/post/responses/429/description)");
    expect(result.ok).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe("a fixture: the scraper baseline with an operation removed and a new required request field", () => {
  const dir = tempDir("api-diff");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const released = join(dir, "released");
  const dist = join(dir, "dist");
  const changesets = join(dir, "changesets");
  for (const d of [released, dist, changesets]) mkdirSync(d);
  copyFileSync(join(RELEASED_DIR, "scraper.json"), join(released, "scraper.json"));
  const doc = JSON.parse(readFileSync(join(RELEASED_DIR, "scraper.json"), "utf8"));
  delete doc.paths["/scrape/shortvideo/post"];
  doc.components.schemas.ProfileRequest.required.push("region");
  doc.components.schemas.ProfileRequest.properties.region = { type: "string" };
  writeFileSync(join(dist, "scraper.json"), JSON.stringify(doc));
  const minor = `---\n"@content-scraper/spec": minor\n"@content-scraper/client": major\n---\n\nNot a major of the spec.\n`;
  const major = `---\n"@content-scraper/spec": major\n---\n\nRemoves POST /scrape/shortvideo/post.\n`;

  it("classifies both changes as breaking, in words", () => {
    const { breaking, report } = checkApiChanges({ distDir: dist, releasedDir: released, changesetDir: changesets });
    const words = breaking.map((b) => b.description).join("\n");
    expect(words).toMatch(/Removed.*POST \/scrape\/shortvideo\/post/);
    expect(breaking.some((b) => b.path.includes("ProfileRequest") || /region/.test(b.path))).toBe(true);
    expect(report).toContain("Verdict: FAIL");
  });

  it("fails without a major changeset, even with a minor one for the spec", () => {
    writeFileSync(join(changesets, "not-major.md"), minor);
    expect(checkApiChanges({ distDir: dist, releasedDir: released, changesetDir: changesets }).ok).toBe(false);
  });

  it("passes with a major changeset for @content-scraper/spec", () => {
    writeFileSync(join(changesets, "breaking.md"), major);
    const result = checkApiChanges({ distDir: dist, releasedDir: released, changesetDir: changesets });
    expect(result.ok).toBe(true);
    expect(result.report).toContain("released as a major");
  });

  it("sees no change between the baseline and itself", () => {
    const same = join(dir, "same");
    mkdirSync(same);
    copyFileSync(join(RELEASED_DIR, "scraper.json"), join(same, "scraper.json"));
    const result = checkApiChanges({ distDir: same, releasedDir: released, changesetDir: changesets });
    expect(result.results[0]?.changes).toEqual([]);
  });
});
