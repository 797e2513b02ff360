// The third-party client generators an integrator reaches for, each run with its defaults (what a user gets without
// tuning) on a bundled description, offline: the input is a local file and no generator fetches anything.
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createClient as heyApi } from "@hey-api/openapi-ts";
import openapiTS, { astToString } from "openapi-typescript";
import { generate as orval } from "orval";

export const TOOLS = ["openapi-typescript", "hey-api", "orval"] as const;
export type Tool = (typeof TOOLS)[number];

/** What each tool is called in the table, with the client it generates. */
export const TOOL_NAMES: Record<Tool, string> = {
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
 * `index.ts` with the fetch functions and the models (`orvalOverride` is its `output.override`; none by default).
 */
export async function generate(tool: Tool, input: string, outDir: string, orvalOverride?: typeof orvalWithoutStatus): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  switch (tool) {
    case "openapi-typescript": {
      const ast = await openapiTS(new URL(`file://${input}`));
      await writeFile(join(outDir, "index.ts"), astToString(ast));
      return;
    }
    case "hey-api":
      await heyApi({ input, output: { path: outDir }, plugins: ["@hey-api/client-fetch"], logs: { level: "silent", file: false } });
      return;
    case "orval":
      await orval({ input: { target: input }, output: { target: join(outDir, "index.ts"), client: "fetch", mode: "single", override: orvalOverride } });
      return;
  }
}
