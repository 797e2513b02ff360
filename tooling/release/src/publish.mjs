#!/usr/bin/env node
// `pnpm release`'s publish step: `changeset publish` in the current directory (the workspace to publish), with npm
// provenance attested where an OIDC provider can vouch for the build, and off elsewhere. A manifest that asks for
// provenance makes npm refuse to publish anywhere else (`EUSAGE Automatic provenance generation not supported for
// provider: null`, and no flag or variable overrides it), so no manifest asks: this script decides, and says which.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

/**
 * The CI whose OIDC token npm can attest provenance with, as npm detects it (libnpmpublish): GitHub Actions with
 * `id-token: write`, or GitLab CI with a `SIGSTORE_ID_TOKEN`. `reason` says why there is none.
 * @param {NodeJS.ProcessEnv} env
 * @returns {{ provider: string } | { provider: undefined, reason: string }}
 */
export function oidcProvider(env) {
  if (env.GITHUB_ACTIONS) {
    if (env.ACTIONS_ID_TOKEN_REQUEST_URL) return { provider: "GitHub Actions" };
    return { provider: undefined, reason: "GitHub Actions without an OIDC token (the job needs `permissions: id-token: write`)" };
  }
  if (env.GITLAB_CI) {
    if (env.SIGSTORE_ID_TOKEN) return { provider: "GitLab CI" };
    return { provider: undefined, reason: "GitLab CI without SIGSTORE_ID_TOKEN (declare it in the job's `id_tokens` with aud: sigstore)" };
  }
  return { provider: undefined, reason: "no OIDC provider here (a maintainer's machine, or a CI npm cannot attest from)" };
}

/** The one line the release prints about provenance. @param {ReturnType<typeof oidcProvider>} found */
export function provenanceLine(found) {
  return "reason" in found
    ? `provenance: off, ${found.reason}; the packages publish without a provenance statement`
    : `provenance: on, attested through ${found.provider}'s OIDC token`;
}

/**
 * Runs `changeset publish` in `cwd` with npm's provenance setting decided here, inheriting the terminal; answers its
 * exit status.
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv }} [options]
 */
export function publish({ cwd = process.cwd(), env = process.env } = {}) {
  const found = oidcProvider(env);
  console.log(provenanceLine(found));
  const changeset = createRequire(import.meta.url).resolve("@changesets/cli/bin.js");
  // npm reads its settings from the environment whatever their case: leave one, the decision.
  const others = Object.entries(env).filter(([name]) => name.toLowerCase() !== "npm_config_provenance");
  const result = spawnSync(process.execPath, [changeset, "publish"], {
    cwd,
    stdio: "inherit",
    env: { ...Object.fromEntries(others), npm_config_provenance: String(found.provider !== undefined) },
  });
  return result.status ?? 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) process.exitCode = publish();
