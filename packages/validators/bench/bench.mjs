// pnpm bench: the precompiled validators against ajv compiling the same schemas at run time (same ajv options).
// - cold start: import + first validation of a 30-post `shortvideoPosts` page, each in fresh processes (median of
//   RUNS, interleaved); the baseline compiles every body schema of the description, as the module holds them all.
// - throughput: the same page through `validateResponse` against the run-time compiled validator of that response,
//   interleaved rounds in one process (median of the per-round ratios).
// Prints a table with the module sizes and exits 1 when a target is missed. Needs `pnpm build`.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const targets = { coldStart: 0.25, throughput: 0.9 };
const RUNS = 11;
const ROUNDS = 40;
const BATCH = 1_000;

const require = createRequire(import.meta.url);
const specPath = require.resolve("@content-scraper/spec/scraper.json");
const dist = new URL("../dist/", import.meta.url);
const [mode, kind, bodyPath] = process.argv.slice(2);

/** The ajv instance of the baseline: every body schema of the description, compiled now. */
async function compileAtRunTime() {
  const { validatorAjv } = await import("@content-scraper/codegen");
  return (document) => {
    const { ajv, exports, table } = validatorAjv(document, "scraper");
    for (const ref of Object.values(exports)) ajv.getSchema(ref);
    return ajv.getSchema(exports[table.shortvideoPosts.responses["200"]["application/json"]]);
  };
}

if (mode === "--cold") {
  // A child: time from nothing loaded to the first verdict. The baseline's ajv is loaded (through codegen) before the
  // clock starts, which only flatters the baseline.
  const body = JSON.parse(readFileSync(bodyPath, "utf8"));
  const compile = kind === "runtime" ? await compileAtRunTime() : undefined;
  const start = performance.now();
  let valid;
  if (compile) {
    valid = compile(JSON.parse(readFileSync(specPath, "utf8")))(body);
  } else {
    const { validateResponse } = await import(new URL("scraper.js", dist).href);
    valid = validateResponse("shortvideoPosts", 200, body).valid;
  }
  const ms = performance.now() - start;
  process.stdout.write(JSON.stringify({ ms, valid }));
  process.exit(0);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// One page of 30 posts, from the description's example post.
const examples = JSON.parse(readFileSync(specPath, "utf8")).components.examples;
const page = structuredClone(examples.ShortvideoPosts.value);
const [post] = page.data.posts;
page.data.posts = Array.from({ length: 30 }, (_, i) => ({ ...structuredClone(post), id: `${post.id.slice(0, -2)}${String(i).padStart(2, "0")}` }));
const bodyFile = join(mkdtempSync(join(tmpdir(), "validators-bench-")), "page.json");
writeFileSync(bodyFile, JSON.stringify(page));

// Cold start.
const self = fileURLToPath(import.meta.url);
const cold = { precompiled: [], runtime: [] };
for (let run = 0; run < RUNS; run++) {
  for (const which of run % 2 ? ["runtime", "precompiled"] : ["precompiled", "runtime"]) {
    const { ms, valid } = JSON.parse(execFileSync(process.execPath, [self, "--cold", which, bodyFile], { encoding: "utf8" }));
    if (!valid) throw new Error(`the ${which} validator rejects the benchmark page`);
    cold[which].push(ms);
  }
}

// Throughput.
const { validateResponse } = await import(new URL("scraper.js", dist).href);
const compiled = (await compileAtRunTime())(JSON.parse(readFileSync(specPath, "utf8")));
const contenders = {
  precompiled: () => validateResponse("shortvideoPosts", 200, page).valid,
  runtime: () => compiled(page),
};
const batch = (run) => {
  const start = performance.now();
  for (let i = 0; i < BATCH; i++) if (!run()) throw new Error("the benchmark page is rejected");
  return BATCH / ((performance.now() - start) / 1000);
};
for (const run of Object.values(contenders)) batch(run); // warm up
const rates = { precompiled: [], runtime: [] };
const ratios = [];
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 ? ["runtime", "precompiled"] : ["precompiled", "runtime"];
  const rate = Object.fromEntries(order.map((which) => [which, batch(contenders[which])]));
  for (const which of order) rates[which].push(rate[which]);
  ratios.push(rate.precompiled / rate.runtime);
}

const coldRatio = median(cold.precompiled) / median(cold.runtime);
const throughputRatio = median(ratios);
const ms = (value) => `${value.toFixed(1)} ms`;
const perSecond = (value) => `${Math.round(value).toLocaleString("en-US")}/s`;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
const verdict = (ok) => (ok ? "ok" : "MISSED");
console.table({
  "cold start (import + first validation)": {
    precompiled: ms(median(cold.precompiled)),
    "run-time compiled": ms(median(cold.runtime)),
    ratio: coldRatio.toFixed(3),
    target: `<= ${targets.coldStart}`,
    "": verdict(coldRatio <= targets.coldStart),
  },
  "throughput (30-post page)": {
    precompiled: perSecond(median(rates.precompiled)),
    "run-time compiled": perSecond(median(rates.runtime)),
    ratio: throughputRatio.toFixed(3),
    target: `>= ${targets.throughput}`,
    "": verdict(throughputRatio >= targets.throughput),
  },
});

// Module sizes, per surface.
const generated = new URL("generated/", dist);
const sizes = {};
for (const file of readdirSync(generated).filter((name) => name.endsWith(".validators.js")).sort()) {
  const bytes = readFileSync(new URL(file, generated));
  sizes[file.replace(".validators.js", "")] = { module: `generated/${file}`, raw: kb(bytes.length), gzip: kb(gzipSync(bytes).length) };
}
console.table(sizes);

process.exitCode = coldRatio <= targets.coldStart && throughputRatio >= targets.throughput ? 0 : 1;
