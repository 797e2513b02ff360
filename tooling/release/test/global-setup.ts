// Packs every published package once for the whole run; the test files read the tarballs.
import { rmSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { packAll } from "../src/packages.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    packed: { dest: string; packed: { name: string; tarball: string; files: string[] }[] };
  }
}

export default async function setup(project: TestProject) {
  const { dest, packed } = await packAll();
  project.provide("packed", { dest, packed: packed.map(({ name, tarball, files }) => ({ name, tarball, files })) });
  return () => rmSync(dest, { recursive: true, force: true });
}
