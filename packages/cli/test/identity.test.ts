import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { RunningMock } from "@content-scraper/mock";
import { startRedis } from "@content-scraper/test-server/redis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { fileName } from "../src/index.js";
import { exportArgs, ledger, platform, readExport, readManifest, runCli, startSandbox, tempDir } from "./harness.js";

let mock: RunningMock;
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  mock = await startSandbox("identity");
  dir = await tempDir();
});
afterAll(async () => {
  await mock.close();
  await dir.remove();
});

const cjk = "你好世界你好世界你好世界你好世界你好世界你好世界你好世界";
const messy = ["maya.bakes", "@maya.bakes", "Maya.Bakes", "12345", "1e3", "0x10", "-5", "CON", "nul", "aux.bakes", "Creator", "creator", cjk, "a".repeat(300), "@"];

describe("one identity per creator, one safe file per identity", () => {
  test("spellings of one handle make one creator; numbers, device names and long handles get safe files; a bad handle fails alone", async () => {
    await mock.reset();
    const path = join(dir.path, "messy.txt");
    await writeFile(path, `${messy.join("\n")}\n`);
    const out = `${dir.path}/messy`;
    const result = await runCli(exportArgs(mock, path, out));
    // The handles the service refuses (the CJK one, the 300-character one) and the empty one fail; the rest finish.
    expect(result.code, result.stderr).toBe(1);
    const manifest = await readManifest(out);
    expect(manifest.creators).toEqual({ total: 12, done: 9, failed: 3, stopped: 0, pending: 0 });
    const maya = manifest.entries.find((entry) => entry.creator === "maya.bakes");
    expect(maya).toMatchObject({ names: ["maya.bakes", "@maya.bakes", "Maya.Bakes"], status: "done", file: fileName("maya.bakes") });
    expect(manifest.entries.find((entry) => entry.creator === "creator")?.names).toEqual(["Creator", "creator"]);
    const refused = manifest.entries.filter((entry) => entry.status === "failed");
    expect(refused.map((entry) => [entry.names[0], entry.error?.code])).toEqual([
      [cjk, "INVALID_INPUT"],
      ["a".repeat(300), "INVALID_INPUT"],
      ["@", "INVALID_HANDLE"],
    ]);
    // maya.bakes was asked for once: one profile per identity sent (the empty handle is never sent).
    const profiles = await mock.log({ operation: `${platform}Profile` });
    expect(profiles).toHaveLength(11);
    expect(manifest.creditsCharged).toBe((await ledger(mock)).credits);

    const files = (await readdir(join(out, platform))).filter((name) => name.endsWith(".jsonl") && !name.startsWith("."));
    expect(files.sort()).toEqual(manifest.entries.map((entry) => entry.file).sort());
    for (const entry of manifest.entries) {
      expect(Buffer.byteLength(entry.file), entry.file).toBeLessThan(100);
      expect(entry.file).toMatch(/^[a-zA-Z0-9._%~-]+\.jsonl$/);
      expect(entry.file.split(".")[0], "no Windows device name").not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)$/);
    }
    expect(new Set(manifest.entries.map((entry) => entry.file.toLowerCase())).size, "distinct on a case-insensitive filesystem").toBe(12);
    expect((await readExport(out)).duplicates).toEqual([]);

    // The refused handles are final: a rerun sends nothing.
    const requests = (await ledger(mock)).requests;
    expect((await runCli(exportArgs(mock, path, out))).code).toBe(1);
    expect((await ledger(mock)).requests).toBe(requests);
  });

  test("only ASCII letters fold: the Kelvin sign (U+212A) is not a k, so its line fails alone and Kitchen/kitchen is exported", async () => {
    await mock.reset();
    const path = join(dir.path, "kelvin.txt");
    // Unicode's lower case of "\u212Aitchen" is "kitchen": first in the file, it used to name the merged creator.
    await writeFile(path, "\u212Aitchen\nKitchen\nkitchen\n");
    const out = `${dir.path}/kelvin`;
    const result = await runCli(exportArgs(mock, path, out));
    expect(result.code, result.stderr).toBe(1);
    const manifest = await readManifest(out);
    expect(manifest.entries.map((entry) => [entry.creator, entry.names, entry.status, entry.error?.code])).toEqual([
      ["\u212Aitchen", ["\u212Aitchen"], "failed", "INVALID_INPUT"],
      ["kitchen", ["Kitchen", "kitchen"], "done", undefined],
    ]);
    expect(manifest.entries[0]?.file).not.toBe(manifest.entries[1]?.file);
    expect(manifest.creditsCharged).toBe((await ledger(mock)).credits);
  });

  test("numeric-looking handles are creators in a fleet too (BullMQ job ids are digests)", async () => {
    await mock.reset();
    const redis = await startRedis();
    try {
      const path = join(dir.path, "numbers.txt");
      await writeFile(path, "12345\n1e3\n0x10\n-5\n");
      const out = `${dir.path}/numbers`;
      const result = await runCli(exportArgs(mock, path, out, ["--redis", redis.url, "--workers", "1"]));
      expect(result.code, result.stderr).toBe(0);
      expect((await readManifest(out)).creators.done).toBe(4);
    } finally {
      await redis.stop();
    }
  });
});
