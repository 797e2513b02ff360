// The third-party client generators an integrator reaches for, each run with its defaults (what a user gets without
// tuning) on a bundled description, offline: the input is a local file and no generator fetches anything. Plain
// JavaScript, so that a child process can run a generator on another TypeScript (`on-typescript7.mjs`).
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const TOOLS = /** @type {const} */ (["openapi-typescript", "hey-api", "orval"]);
/** @typedef {(typeof TOOLS)[number]} Tool */

/** What each tool is called in the table, with the client it generates. @type {Record<Tool, string>} */
export const TOOL_NAMES = {
  "openapi-typescript": "openapi-typescript + openapi-fetch",
  "hey-api": "@hey-api/openapi-ts (client-fetch)",
  orval: "orval (fetch client)",
};

/**
 * The orval option that works around its one defect here (spec/README.md): its functions resolve the body alone, without
 * the `status` it would write as the literal `2XX` for a response range.
 */
export const orvalWithoutStatus = { fetch: { includeHttpResponseReturnType: false } };

/**
 * Writes `tool`'s client for the description at `input` into `outDir` (emptied first): openapi-typescript one
 * `index.ts` of types (openapi-fetch is the runtime), hey-api its `index.ts` with the SDK and bundled client, orval one
 * `index.ts` with the fetch functions and the models (`orvalOverride` is its `output.override`; none by default). Each
 * generator is loaded when it runs: one that fails to load on a TypeScript it does not support fails only its own run.
 * @param {Tool} tool
 * @param {string} input
 * @param {string} outDir
 * @param {typeof orvalWithoutStatus} [orvalOverride]
 * @returns {Promise<void>}
 */
export async function generate(tool, input, outDir, orvalOverride) {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  switch (tool) {
    case "openapi-typescript": {
      const { default: openapiTS, astToString } = await import("openapi-typescript");
      await writeFile(join(outDir, "index.ts"), astToString(await openapiTS(new URL(`file://${input}`))));
      return;
    }
    case "hey-api": {
      const { createClient } = await import("@hey-api/openapi-ts");
      await createClient({ input, output: { path: outDir }, plugins: ["@hey-api/client-fetch"], logs: { level: "silent", file: false } });
      return;
    }
    case "orval": {
      const { generate: orval } = await import("orval");
      await orval({ input: { target: input }, output: { target: join(outDir, "index.ts"), client: "fetch", mode: "single", override: orvalOverride } });
      return;
    }
  }
}
