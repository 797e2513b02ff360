// Breaking-change detection: the build against the description as last released, and the policy
// (a breaking change needs a major changeset for @content-scraper/spec), exercised on a fixture.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkApiChanges, DIST_DIR, diffDescriptions, RELEASED_DIR, releasedApis } from "../src/api-diff.mjs";
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
    // One line for the same change at every place, with its first pointer.
    expect(result.report).toMatch(
      /^- annotation \(the prose rule\): \[Replaced\] annotation \(description\) of Response 429 \(#\/paths\/~1scrape~1shortvideo~1profile\/post\/responses\/429\/description, and \d+ more places like it\)$/m,
    );
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

describe("corrections are pinned to a surface, a pointer, a kind of change and its values before and after", () => {
  const dir = tempDir("api-diff-corrections");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const released = join(dir, "released");
  const dist = join(dir, "dist");
  for (const d of [released, dist]) mkdirSync(d);
  for (const api of ["scraper", "platform"]) copyFileSync(join(RELEASED_DIR, `${api}.json`), join(released, `${api}.json`));
  const host = "#/servers/0/variables/host/default";
  /** The released scraper and platform with each one's default host replaced by `value` (removed when undefined). */
  const build = (values: Record<"scraper" | "platform", string | undefined>) => {
    for (const api of ["scraper", "platform"] as const) {
      const doc = JSON.parse(readFileSync(join(RELEASED_DIR, `${api}.json`), "utf8"));
      if (values[api] === undefined) delete doc.servers[0].variables.host.default;
      else doc.servers[0].variables.host.default = values[api];
      writeFileSync(join(dist, `${api}.json`), JSON.stringify(doc));
    }
  };
  let changesets = 0;
  /** A changeset directory with one patch changeset for the spec, carrying `lines`. */
  const changesetWith = (...lines: string[]) => {
    const at = join(dir, `changesets-${++changesets}`);
    mkdirSync(at);
    writeFileSync(join(at, "fix.md"), `---\n"@content-scraper/spec": patch\n---\n\nThe default host.\n\n${lines.join("\n")}\n`);
    return at;
  };
  const withCorrections = (...lines: string[]) => checkApiChanges({ distDir: dist, releasedDir: released, changesetDir: changesetWith(...lines) });
  const replaced = (surface: string, before = "api.example.com", after = "api.example.invalid") =>
    `- correction \`${surface}\` \`${host}\` replaced (server) from \`"${before}"\` to \`"${after}"\`: a placeholder that reached no service.`;

  it("acknowledges the change it names, on its surface, and prints the line for the one it does not", () => {
    build({ scraper: "api.example.invalid", platform: "api.example.invalid" });
    const result = withCorrections(replaced("platform"));
    expect(result.breaking.map((c) => [c.api, c.path])).toEqual([["scraper", host]]);
    expect(result.corrections.map((c) => c.api)).toEqual(["platform"]);
    expect(result.ok).toBe(false);
    expect(result.report).toContain(`- correction \`scraper\` \`${host}\` replaced (server) from \`"api.example.com"\` to \`"api.example.invalid"\`: <why`);
    expect(withCorrections(replaced("platform"), replaced("scraper")).ok).toBe(true);
  });

  it("acknowledges no other change at its pointer: a removed default, or another value after", () => {
    build({ scraper: undefined, platform: "api.other.invalid" });
    const result = withCorrections(replaced("scraper"), replaced("platform"));
    expect(result.breaking.map((c) => [c.api, c.action])).toEqual([
      ["platform", "replace"],
      ["scraper", "remove"],
    ]);
    // And so both corrections acknowledge nothing, which fails the release by itself, saying what changed there.
    expect(result.unmatched.map((c) => c.surface).sort()).toEqual(["platform", "scraper"]);
    expect(result.report).toContain(
      `A correction in fix.md acknowledges no change: \`scraper\` \`${host}\` replaced (server) from \`"api.example.com"\` to \`"api.example.invalid"\`. ` +
        `The breaking change there: removed (server) from \`"api.example.com"\`.`,
    );
  });

  it("acknowledges no change from another value before, though it ends at the same value", () => {
    build({ scraper: "api.example.com", platform: "api.example.invalid" });
    const before = join(dir, "released-elsewhere");
    mkdirSync(before);
    const doc = JSON.parse(readFileSync(join(RELEASED_DIR, "platform.json"), "utf8"));
    doc.servers[0].variables.host.default = "api.example.org";
    writeFileSync(join(before, "platform.json"), JSON.stringify(doc));
    const judged = (line: string) => checkApiChanges({ distDir: dist, releasedDir: before, changesetDir: changesetWith(line) });
    const result = judged(replaced("platform"));
    expect([result.breaking.map((c) => c.path), result.unmatched.length, result.ok]).toEqual([[host], 1, false]);
    expect(result.report).toContain(`- correction \`platform\` \`${host}\` replaced (server) from \`"api.example.org"\` to \`"api.example.invalid"\`: <why`);
    expect(judged(replaced("platform", "api.example.org")).ok).toBe(true);
  });

  it("pins a value too long to write by its digest, prints the JSON it stands for, and takes either", () => {
    const doc = JSON.parse(readFileSync(join(RELEASED_DIR, "platform.json"), "utf8"));
    const variable = doc.servers[0].variables.host;
    delete doc.servers[0].variables.host;
    writeFileSync(join(dist, "platform.json"), JSON.stringify(doc));
    copyFileSync(join(RELEASED_DIR, "scraper.json"), join(dist, "scraper.json"));
    const { report, ok } = withCorrections();
    const digest = /^- correction `platform` `#\/servers\/0\/variables\/host` removed \(server\) from `(sha256:[0-9a-f]{16})`: <why.*$/m.exec(report)?.[1];
    expect([digest, ok]).toEqual([expect.any(String), false]);
    expect(report).toContain(`  (\`${digest}\` is ${JSON.stringify(variable)})`);
    const line = (value: string) => `- correction \`platform\` \`#/servers/0/variables/host\` removed (server) from \`${value}\`: the host was never a setting.`;
    expect(withCorrections(line(`${digest}`)).ok).toBe(true);
    // The same value as JSON, its keys in another order: a value is pinned, not its text.
    const reordered = Object.fromEntries(Object.entries(variable).reverse());
    expect(withCorrections(line(JSON.stringify(reordered))).ok).toBe(true);
    expect(withCorrections(line(JSON.stringify({ ...variable, default: "api.example.org" }))).ok).toBe(false);
  });

  it("fails the release on a correction that acknowledges nothing, even with no breaking change or with a major", () => {
    build({ scraper: "api.example.com", platform: "api.example.com" });
    const result = withCorrections(replaced("connect"));
    expect([result.breaking, result.unmatched.map((c) => c.surface), result.ok]).toEqual([[], ["connect"], false]);
    expect(result.report).toContain("Verdict: FAIL. No breaking change, but the corrections above are wrong.");
    const at = join(dir, "changesets-major");
    mkdirSync(at);
    writeFileSync(join(at, "major.md"), `---\n"@content-scraper/spec": major\n---\n\nA major.\n\n${replaced("connect")}\n`);
    expect(checkApiChanges({ distDir: dist, releasedDir: released, changesetDir: at }).ok).toBe(false);
  });

  it.each([
    ["the pointer-only form", `- correction \`${host}\`: the host was a placeholder.`],
    ["the form with a kind and the new value only", `- correction \`scraper\` \`${host}\` replaced (server) with \`"api.example.invalid"\`: the host was a placeholder.`],
    ["a value that is no JSON", `- correction \`scraper\` \`${host}\` replaced (server) from \`api.example.com\` to \`"api.example.invalid"\`: the host was a placeholder.`],
  ])("fails the release on a correction that does not name its values (%s)", (_, line) => {
    build({ scraper: "api.example.invalid", platform: "api.example.com" });
    const result = withCorrections(line);
    expect(result.malformed).toHaveLength(1);
    expect(result.breaking.map((c) => c.api)).toEqual(["scraper"]);
    expect(result.ok).toBe(false);
  });
});

describe("a realistic edit: a shared component gains a oneOf branch", () => {
  // The scraper's error body, reached by every response of every operation, becomes one of two shapes.
  const before = JSON.parse(readFileSync(join(DIST_DIR, "scraper.json"), "utf8"));
  const after = structuredClone(before);
  after.components.schemas.ErrorEnvelope.oneOf = [
    { type: "object", properties: { reason: { type: "string" } } },
    { type: "object", required: ["detail"], properties: { detail: { type: "string" } } },
  ];

  it("is reported in a few lines, however many places the component is compared at", () => {
    const started = performance.now();
    const changes = diffDescriptions(before, after);
    const elapsed = performance.now() - started;
    const dir = tempDir("api-diff-realistic");
    try {
      for (const d of ["released", "dist", "changesets"]) mkdirSync(join(dir, d));
      writeFileSync(join(dir, "released", "scraper.json"), JSON.stringify(before));
      writeFileSync(join(dir, "dist", "scraper.json"), JSON.stringify(after));
      const { report } = checkApiChanges({ distDir: join(dir, "dist"), releasedDir: join(dir, "released"), changesetDir: join(dir, "changesets") });
      const section = report.slice(report.indexOf("## scraper"), report.indexOf("\n\n", report.indexOf("## scraper") + 12));
      const listed = section.split("\n").filter((line) => line.startsWith("- "));
      const lines = report.trim().split("\n").length;
      console.log(`a shared component gaining a oneOf branch: ${changes.length} changes at their places, ${listed.length} lines of changes, ${lines} report lines, ${Math.round(elapsed)} ms`);
      expect(changes.some((c) => c.type === "breaking")).toBe(true);
      expect(listed.length).toBeLessThanOrEqual(10);
      expect(lines).toBeLessThanOrEqual(50);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
