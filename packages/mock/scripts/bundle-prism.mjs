// Bundles Prism, the sandbox's engine, into dist/prism.js (in place of what tsc emitted for src/prism.ts), with the
// licences of everything bundled beside it, and writes the version it bundled into dist/prism-version.js. A partner who
// installs the sandbox then gets no Prism dependency tree: none of its install scripts (telemetry), none of the
// `@types/*` packages Prism declares as dependencies, and none of the converters the sandbox never calls. Every bundled
// package must declare support for the sandbox's own Node range, so `engines` stays true.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { build } from "esbuild";
import semver from "semver";

const root = join(import.meta.dirname, "..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const require = createRequire(join(root, "package.json"));
const prismDir = dirname(require.resolve("@stoplight/prism-http/package.json"));

// What src/prism.ts exports, resolved as Prism resolves it (json-schema-faker as a CommonJS `require`, the one instance
// Prism's generator reads).
const entry = `
import prismHttp from "@stoplight/prism-http";
const { JSONSchemaFaker } = require("json-schema-faker");
export const { createInstance, getHttpOperationsFromSpec } = prismHttp;
export { JSONSchemaFaker };
`;

// Modules Prism loads that the sandbox never runs, replaced by a stub that says so if it ever is: @stoplight/http-spec
// converts Postman collections too (the sandbox reads OpenAPI only), and @faker-js/faker's every locale (Prism's
// generator uses the default, English).
const replaced = {
  "postman-collection":
    'module.exports = new Proxy({}, { get(_, name) { throw new Error("postman-collection." + String(name) + " is not bundled: the sandbox reads OpenAPI descriptions only"); } });',
};
const aliases = { "@faker-js/faker": "@faker-js/faker/locale/en" };
// Packages whose CommonJS build is a UMD wrapper, whose requires esbuild cannot see: their ES module build instead.
const esModuleBuilds = ["jsonc-parser"];

const stubs = {
  name: "sandbox-stubs",
  setup(context) {
    const names = Object.keys(replaced).map((name) => name.replace(/[/.]/g, "\\$&"));
    context.onResolve({ filter: new RegExp(`^(${names.join("|")})$`) }, ({ path }) => ({ path, namespace: "stub" }));
    context.onLoad({ filter: /.*/, namespace: "stub" }, ({ path }) => ({ contents: replaced[path], loader: "js" }));
    for (const name of esModuleBuilds) {
      context.onResolve({ filter: new RegExp(`^${name}$`) }, async ({ resolveDir, kind }) => {
        const main = await context.resolve(`${name}/package.json`, { resolveDir, kind });
        const { module } = JSON.parse(readFileSync(main.path, "utf8"));
        return { path: join(dirname(main.path), module) };
      });
    }
    for (const [from, to] of Object.entries(aliases)) {
      context.onResolve({ filter: new RegExp(`^${from.replace(/[/.]/g, "\\$&")}$`) }, ({ resolveDir, kind }) => context.resolve(to, { resolveDir, kind }));
    }
  },
};

const result = await build({
  stdin: { contents: entry, resolveDir: prismDir, sourcefile: "prism-entry.mjs", loader: "js" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  outfile: join(root, "dist/prism.js"),
  minify: true,
  legalComments: "none",
  metafile: true,
  logLevel: "warning",
  plugins: [stubs],
  // CommonJS inside an ES module: `require` of Node's built-ins, and the paths some packages read.
  banner: {
    js: [
      "// Prism (@stoplight/prism-http) and the modules it loads, bundled for @content-scraper/mock; licences: THIRD-PARTY-NOTICES.txt",
      'import { createRequire as __createRequire } from "node:module";',
      "const require = __createRequire(import.meta.url);",
    ].join("\n"),
  },
});

// Every bundled package, from the files esbuild read: name, version, licence, and its engines against ours.
const packages = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const at = input.lastIndexOf("node_modules/");
  if (at < 0) continue;
  const parts = input.slice(at + "node_modules/".length).split("/");
  const name = parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
  const dir = join(input.slice(0, at), "node_modules", name);
  if (!packages.has(name)) packages.set(name, { dir: join(process.cwd(), dir) });
}
const floor = semver.minVersion(manifest.engines.node).version;
const notices = [];
const unsupported = [];
for (const [name, { dir }] of [...packages].sort(([a], [b]) => a.localeCompare(b))) {
  const own = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const range = own.engines?.node;
  if (range && !semver.satisfies(floor, range)) unsupported.push(`${name}@${own.version} (engines.node ${range})`);
  const licence = ["LICENSE", "LICENSE.md", "LICENSE.txt", "license", "LICENCE", "LICENSE-MIT"].map((file) => join(dir, file)).find(existsSync);
  notices.push(`${name}@${own.version} (${own.license ?? "see its package"})\n\n${licence ? readFileSync(licence, "utf8").trim() : "No licence file is shipped with this package."}\n`);
}
if (unsupported.length) {
  throw new Error(`bundled packages that do not declare Node ${floor} (the sandbox's engines.node ${manifest.engines.node}):\n  ${unsupported.join("\n  ")}`);
}
// In place of src/prism-version.ts, which reads Prism's package: an install has none.
const { version } = JSON.parse(readFileSync(join(prismDir, "package.json"), "utf8"));
writeFileSync(join(root, "dist/prism-version.js"), `/** The version of Prism serving the sandbox. */\nexport const prismVersion = ${JSON.stringify(version)};\n`);

const header = `@content-scraper/mock bundles Prism and the modules it loads into dist/prism.js. Their licences follow.\n`;
writeFileSync(join(root, "dist/THIRD-PARTY-NOTICES.txt"), [header, ...notices].join(`\n${"-".repeat(80)}\n\n`));
