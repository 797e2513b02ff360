import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { apis, distDir } from "./load.js";

const bundleScript = fileURLToPath(new URL("../scripts/bundle.mjs", import.meta.url));
const config = fileURLToPath(new URL("../../redocly.yaml", import.meta.url));

describe("the bundles", () => {
  it("cover exactly the surfaces listed under apis: in redocly.yaml", async () => {
    const { apis: listed } = parse(await readFile(config, "utf8")) as { apis: Record<string, { root: string }> };
    expect(Object.keys(listed)).toEqual([...apis]);
    for (const api of apis) expect(listed[api]?.root).toBe(`spec/${api}/openapi.yaml`);
  });

  it("are exported by the package, every format of every surface", async () => {
    const { exports } = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as { exports: Record<string, string> };
    for (const api of apis) {
      for (const format of ["yaml", "json", "deref.json"]) {
        expect(exports[`./${api}.${format}`], `${api}.${format}`).toBe(`./dist/${api}.${format}`);
      }
    }
  });

  it.each(apis)("%s.json is valid OpenAPI 3.1", async (api) => {
    // The official OpenAPI schemas, as maintained by the validator package.
    const validator = new Validator();
    const result = await validator.validate(fileURLToPath(new URL(`${api}.json`, distDir)));
    expect(validator.version).toBe("3.1");
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  }, 30_000);

  it.each(apis)("%s: the .yaml, .json and .deref.json bundles describe the same API", async (api) => {
    const yaml = parse(await readFile(new URL(`${api}.yaml`, distDir), "utf8"));
    const json = JSON.parse(await readFile(new URL(`${api}.json`, distDir), "utf8"));
    const deref = JSON.parse(await readFile(new URL(`${api}.deref.json`, distDir), "utf8"));
    expect(yaml).toEqual(json);
    expect(JSON.stringify(deref)).not.toContain('"$ref"');
    expect(Object.keys(deref.paths)).toEqual(Object.keys(json.paths));
  });

  it("is byte-identical when built again", async () => {
    const again = await mkdtemp(join(tmpdir(), "spec-dist-"));
    await promisify(execFile)(process.execPath, [bundleScript, "--out", again]);
    const built = (await readdir(distDir)).sort();
    expect((await readdir(again)).sort()).toEqual(built);
    for (const file of built) {
      const [first, second] = await Promise.all([readFile(new URL(file, distDir)), readFile(join(again, file))]);
      expect(first.equals(second), file).toBe(true);
    }
  }, 180_000);
});
