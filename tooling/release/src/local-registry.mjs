#!/usr/bin/env node
// A private npm registry on loopback (Verdaccio), for the registry test and for trying a release by hand: storage in a
// temporary folder that goes with it, no uplinks (it serves only what is published to it), and one user whose token
// may publish. `node tooling/release/src/local-registry.mjs` starts one and prints what sends the scope there.
import { spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { once } from "node:events";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { tempDir } from "./packages.mjs";

/**
 * @typedef {object} LocalRegistry
 * @property {string} url the registry's URL, ending in `/`
 * @property {string} token a token that may publish
 * @property {string} authLine the `.npmrc` line that gives the token to npm and pnpm for this registry only
 * @property {() => Promise<void>} stop stops the server and removes its storage
 */

/**
 * Starts Verdaccio in a child process on a free port of a loopback address of its own (127.x.y.z), so that no package
 * manager's cache can take this registry's packages for those of an earlier one: a release publishes the same names
 * and versions each time, with other contents. @returns {Promise<LocalRegistry>}
 */
export async function startLocalRegistry() {
  const dir = tempDir("registry");
  const host = `127.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  // Its stdin is a pipe from this process: when this process goes, however it goes, the server goes too.
  const child = spawn(process.execPath, [import.meta.filename, "--serve", dir, host], { stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  const exited = once(child, "exit");
  const url = await new Promise((resolve, reject) => {
    const read = (/** @type {Buffer} */ chunk) => {
      output += chunk;
      const found = /^listening (http:\S+)$/m.exec(output);
      if (found) resolve(found[1]);
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    exited.then(() => reject(new Error(`Verdaccio exited before it listened:\n${output}`)));
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill();
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const token = await addUser(url);
    return { url, token, authLine: `${url.replace(/^https?:/, "")}:_authToken=${token}`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Creates the publishing user (npm's `adduser` call) and answers its token. @param {string} url */
async function addUser(url) {
  const response = await fetch(new URL("-/user/org.couchdb.user:release", url), {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "release", password: "release-on-loopback" }),
  });
  const body = /** @type {{ token?: string }} */ (await response.json());
  if (!response.ok || typeof body.token !== "string") throw new Error(`Verdaccio refused the user: ${response.status} ${JSON.stringify(body)}`);
  return body.token;
}

/** The server itself, in this process: Verdaccio's programmatic API on a free port. @param {string} dir @param {string} host */
async function serve(dir, host) {
  const { runServer } = createRequire(import.meta.url)("verdaccio");
  const server = await runServer({
    self_path: dir,
    configPath: join(dir, "config.yaml"),
    storage: join(dir, "storage"),
    auth: { htpasswd: { file: join(dir, "htpasswd"), max_users: 1 } },
    uplinks: {},
    packages: { "**": { access: "$all", publish: "$authenticated", unpublish: "$authenticated" } },
    max_body_size: "100mb",
    web: { enable: false },
    log: { type: "stderr", format: "pretty", level: "error" },
  });
  server.listen(0, host, () => console.log(`listening http://${host}:${server.address().port}/`));
  process.stdin.on("close", () => process.exit(0)).resume();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (process.argv[2] === "--serve") await serve(/** @type {string} */ (process.argv[3]), /** @type {string} */ (process.argv[4]));
  else {
    const registry = await startLocalRegistry();
    console.log(`Verdaccio on ${registry.url} (Ctrl-C stops it, and takes what was published with it)`);
    // The scope only: a release's tests still install third-party packages from the npm registry.
    console.log(`  env 'npm_config_@content-scraper:registry=${registry.url}'`);
    console.log(`  .npmrc: ${registry.authLine}`);
    for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) process.on(signal, () => registry.stop().then(() => process.exit(0)));
  }
}
