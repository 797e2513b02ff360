// The project the matrix runs in: a fresh folder where npm installed the SDK's packages from their packed tarballs
// (`pnpm pack`, as the registry would serve them), third-party dependencies from the npm registry.
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../../..");
const packages = ["runtime", "client", "platform", "connect"];

export async function installedProject() {
  const project = mkdtempSync(join(tmpdir(), "runtime-matrix-"));
  const tarballs = await Promise.all(
    packages.map(async (name) => {
      const { stdout } = await run("pnpm", ["pack", "--pack-destination", project], { cwd: join(root, "packages", name) });
      return stdout.trim().split("\n").at(-1) ?? "";
    }),
  );
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "matrix-project", private: true, type: "module" }));
  await run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", ...tarballs], { cwd: project, maxBuffer: 1 << 24 });
  return project;
}
