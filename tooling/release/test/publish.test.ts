// The release script's provenance decision: on where npm can attest it (an OIDC token in GitHub Actions or GitLab CI),
// off with a line that says why everywhere else. The registry test publishes through the script for real.
import { expect, it } from "vitest";
import { oidcProvider, provenanceLine } from "../src/publish.mjs";

it.each([
  [{}, undefined, "provenance: off, no OIDC provider here"],
  [{ GITHUB_ACTIONS: "true", ACTIONS_ID_TOKEN_REQUEST_URL: "https://token.example/" }, "GitHub Actions", "provenance: on, attested through GitHub Actions"],
  [{ GITHUB_ACTIONS: "true" }, undefined, "`permissions: id-token: write`"],
  [{ GITLAB_CI: "true", SIGSTORE_ID_TOKEN: "eyJ" }, "GitLab CI", "provenance: on, attested through GitLab CI"],
  [{ GITLAB_CI: "true" }, undefined, "SIGSTORE_ID_TOKEN"],
])("%o: %s", (env, provider, line) => {
  const found = oidcProvider(env);
  expect(found.provider).toBe(provider);
  expect(provenanceLine(found)).toContain(line);
});
