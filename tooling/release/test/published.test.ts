// Every published package, packed as npm would receive it: publint (strict) and attw (esm-only)
// clean, and the metadata of design.md's "Packages" section present.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { runAttw, runPublint } from "../src/checks.mjs";
import { packedManifest, publishedPackages, ROOT } from "../src/packages.mjs";
import { rangeProblems } from "../src/ranges.mjs";
import manifest from "../package.json" with { type: "json" };
import rootManifest from "../../../package.json" with { type: "json" };

const packages = publishedPackages();
const packed = inject("packed");
const siblings = new Map(packages.map((p) => [p.name, p.version]));
const licence = readFileSync(join(ROOT, "LICENSE"), "utf8");

const tarball = (name: string) => {
  const p = packed.packed.find((x) => x.name === name);
  if (!p) throw new Error(`${name} was not packed`);
  return p;
};

it("finds the published packages: packages/* that are not private, and spec", () => {
  expect(packages.map((p) => p.name)).toContain("@content-scraper/spec");
  expect(packages.map((p) => p.name)).toContain("@content-scraper/client");
});

it("has the MIT licence at the root, as every manifest says", () => {
  expect(licence).toMatch(/^MIT License\n/);
  expect(rootManifest.license).toBe("MIT");
});

it("builds every published package before this task runs (a devDependency each, so turbo's ^build covers it)", () => {
  const dev = Object.keys((manifest as { devDependencies: Record<string, string> }).devDependencies);
  expect(packages.map((p) => p.name).filter((n) => !dev.includes(n))).toEqual([]);
});

describe.each(packages.map((p) => [p.name, p] as const))("%s", (name, pkg) => {
  const m = pkg.manifest;

  it("is ESM with types-first exports, ./package.json, a files allowlist, sideEffects and engines", () => {
    expect(m.type).toBe("module");
    expect(m.exports["./package.json"]).toBe("./package.json");
    for (const [sub, target] of Object.entries<unknown>(m.exports)) {
      if (typeof target === "object" && target !== null) {
        expect(Object.keys(target)[0], `${sub}: types must come first`).toBe("types");
      }
    }
    expect(Array.isArray(m.files) && m.files.length > 0).toBe(true);
    expect(m.sideEffects).toBe(false);
    expect(m.engines?.node).toBe(">=20.19.0");
    expect(typeof m.license).toBe("string");
    expect(m.main ?? m.module ?? m.types).toBeUndefined();
  });

  // A manifest that asks for provenance cannot be published where no OIDC provider attests it (npm: EUSAGE), and no
  // flag overrides it: the release script (src/publish.mjs) decides instead.
  it("publishes publicly, and leaves provenance to the release script", () => {
    expect(m.publishConfig).toEqual({ access: "public" });
  });

  it("packs the MIT licence, the repository's own", () => {
    expect(m.license).toBe("MIT");
    expect(tarball(name).files).toContain("LICENSE");
    expect(readFileSync(join(pkg.dir, "LICENSE"), "utf8")).toBe(licence);
  });

  // npm checks a provenance publish against `repository`: the monorepo's URL (one place, the root manifest), and the
  // package's own directory in it.
  it("names the monorepo's repository, its own directory, a homepage and where to report bugs", () => {
    const { url } = rootManifest.repository;
    expect(m.repository).toEqual({ type: "git", url, directory: pkg.rel });
    const web = url.replace(/^git\+/, "").replace(/\.git$/, "");
    expect(m.homepage).toBe(`${web}/tree/main/${pkg.rel}#readme`);
    expect(m.bugs).toBe(`${web}/issues`);
  });

  it("packs only its allowlisted files", () => {
    const { files } = tarball(name);
    expect(files).toContain("package.json");
    expect(files.filter((f) => /^(src|test|bench|scripts|node_modules)\//.test(f) || f.endsWith(".test.js"))).toEqual([]);
  });

  // tsc never deletes what it emitted for a source that is gone: such a module would ship, untested.
  it("packs no stale build output: every module in dist/ has its source in src/", () => {
    const modules = tarball(name).files.filter((f) => /^dist\/.*\.(d\.ts|js)$/.test(f));
    const sourceless = modules.filter((f) => {
      const base = f.replace(/^dist\//, "src/").replace(/\.(d\.ts|js)$/, "");
      return ![".ts", ".mts", ".js", ".mjs"].some((ext) => existsSync(join(pkg.dir, `${base}${ext}`)));
    });
    expect(sourceless).toEqual([]);
  });

  it("ships no source maps: they would point at src/, which is not shipped", () => {
    expect(tarball(name).files.filter((f) => f.endsWith(".map"))).toEqual([]);
  });

  // A version that is never published (0.0.0) in a sibling's range makes `npm install <tarball>` fail beside the
  // sibling's own tarball, and from the registry.
  it("has a real version, and publishes ranges: siblings by their versions, third-party packages by carets", async () => {
    expect(m.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(m.version).not.toBe("0.0.0");
    expect(rangeProblems(await packedManifest(tarball(name).tarball), siblings)).toEqual([]);
  });

  it("is publint-clean (strict, suggestions included)", async () => {
    expect(await runPublint(tarball(name).tarball)).toEqual([]);
  });

  it("is attw-clean under the esm-only profile", async () => {
    const problems = await runAttw(tarball(name).tarball);
    if (name === "@content-scraper/spec") expect(problems).toBeNull();
    else expect(problems).toEqual([]);
  });
});
