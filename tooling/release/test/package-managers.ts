// How each package manager the registry test uses is set up in a fresh project, installs from the test's registry, and
// runs an installed package's bin. npm and pnpm are the machine's; Yarn (4, from @yarnpkg/cli-dist) and Bun (from the
// `bun` package) are this package's devDependencies, so the test needs nothing beyond the workspace's install.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const yarn = require.resolve("@yarnpkg/cli-dist/bin/yarn.js");
const bun = join(dirname(require.resolve("bun/package.json")), "bin/bun.exe");

export const managers = ["npm", "pnpm", "yarn", "bun"] as const;
export type Manager = (typeof managers)[number];

/** A command line: the program and its arguments. */
export type Command = [string, ...string[]];

/**
 * Writes the configuration that sends `@content-scraper/*` to the test's registry (everything else comes from the npm
 * registry, through each manager's own cache). Yarn and Bun get a cache of the project's own: they key a package by
 * name and version, and this run publishes versions a previous run may have published with other contents. npm and
 * pnpm key a tarball by its integrity, so their shared caches cannot hand back a stale one.
 */
export function configure(manager: Manager, project: string, registry: string): void {
  const scope = `@content-scraper:registry=${registry}\n`;
  if (manager === "yarn") {
    writeFileSync(
      join(project, ".yarnrc.yml"),
      [
        // node_modules, as npm lays it out: TypeScript 7 reads no Plug'n'Play map.
        "nodeLinker: node-modules",
        "enableGlobalCache: false",
        // Nor the machine's mirror (~/.yarn/berry/cache), which Yarn reads even then, by name and version: a previous
        // run's 0.2.0 of a package came back in place of this run's.
        "enableMirror: false",
        "enableTelemetry: false",
        // Yarn turns immutable installs on in CI; this project has no lockfile yet.
        "enableImmutableInstalls: false",
        // Yarn 4 quarantines a version for its first day (npmMinimalAgeGate: 1d): let this scope's fresh release through.
        `npmPreapprovedPackages: ["@content-scraper/*"]`,
        `unsafeHttpWhitelist: ["${new URL(registry).hostname}"]`,
        `npmScopes: { content-scraper: { npmRegistryServer: "${registry}" } }`,
        ...caFileLines(),
        "",
      ].join("\n"),
    );
    writeFileSync(join(project, "yarn.lock"), "");
  } else if (manager === "bun") {
    writeFileSync(join(project, "bunfig.toml"), `[install]\ncache = { dir = "${join(project, ".bun-cache")}" }\n\n[install.scopes]\n"@content-scraper" = "${registry}"\n`);
  } else {
    writeFileSync(join(project, ".npmrc"), scope);
  }
}

/**
 * Yarn reads neither npm's `cafile` nor, unless it is set, NODE_EXTRA_CA_CERTS: behind a proxy that signs with the
 * machine's own authority (as in CI), its requests to the npm registry fail on a self-signed certificate.
 */
function caFileLines(): string[] {
  const cafile = process.env.NODE_EXTRA_CA_CERTS || execFileSync("npm", ["config", "get", "cafile"], { encoding: "utf8" }).trim();
  return cafile && cafile !== "null" && cafile !== "undefined" ? [`httpsCaFilePath: ${JSON.stringify(cafile)}`] : [];
}

/** The install of the project's package.json. */
export function installCommand(manager: Manager): Command {
  switch (manager) {
    case "npm":
      return ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"];
    case "pnpm":
      return ["pnpm", "install", "--reporter=silent"];
    case "yarn":
      return [process.execPath, yarn, "install"];
    case "bun":
      return [bun, "install", "--no-progress"];
  }
}

/** An installed package's bin, run the way the manager runs one. */
export function binCommand(manager: Manager, bin: string, ...args: string[]): Command {
  switch (manager) {
    case "npm":
      return ["npx", "--no-install", bin, ...args];
    case "pnpm":
      return ["pnpm", "exec", bin, ...args];
    case "yarn":
      return [process.execPath, yarn, bin, ...args];
    case "bun":
      return [bun, "run", bin, ...args];
  }
}
