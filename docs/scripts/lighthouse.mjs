// Lighthouse over the built site, mobile and desktop: `pnpm lighthouse [--dir <site>] [--runs <n>] [page …]`. The site
// is served from loopback as a static host would serve it (gzip, no cache headers of ours), and Debian's Chromium is
// started headless on a free DevTools port. Prints one line per page and form factor: performance, accessibility, best
// practices, SEO, the metrics, and the page's transfer size; with `--runs`, the run of median performance (Lighthouse's
// own advice against a busy machine's noise). Too slow for `pnpm test` (about 15 s a run): docs/README.md records its
// figures.
import { spawn } from "node:child_process";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { parseArgs } from "node:util";
import { createGzip } from "node:zlib";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { distDir } from "./site.mjs";

const { values, positionals } = parseArgs({ options: { dir: { type: "string" }, json: { type: "boolean" }, runs: { type: "string", default: "1" } }, allowPositionals: true });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs takes a whole number of runs, not ${values.runs}`);
const siteDir = values.dir ?? distDir;
/** The issue's set: the landing page, a guide, each reference page, a package page, an error page. */
const pages = positionals.length
  ? positionals
  : ["index.html", "guides/quick-start.html", "reference/scraper.html", "reference/platform.html", "reference/platform-legacy.html", "reference/connect.html", "packages/client/index.html", "errors/scraper/SCRAPER_RATE_LIMITED.html"];

const types = { ".html": "text/html; charset=utf-8", ".css": "text/css", ".js": "text/javascript", ".json": "application/json", ".md": "text/markdown; charset=utf-8", ".txt": "text/plain; charset=utf-8", ".svg": "image/svg+xml" };

const server = createServer(async (request, response) => {
  const path = normalize(decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
  const file = join(siteDir, path.endsWith("/") ? `${path}index.html` : path);
  const found = await stat(file).catch(() => undefined);
  if (!found?.isFile()) {
    response.writeHead(404, { "content-type": "text/plain" }).end("not found");
    return;
  }
  response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream", "content-encoding": "gzip" });
  createReadStream(file).pipe(createGzip()).pipe(response);
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const chromium = spawn(
  process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  ["--headless=new", "--remote-debugging-port=0", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "about:blank"],
  { stdio: ["ignore", "ignore", "pipe"] },
);
const port = await new Promise((resolve, reject) => {
  let seen = "";
  chromium.stderr.on("data", (chunk) => {
    seen += chunk;
    const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(seen);
    if (match) resolve(Number(match[1]));
  });
  chromium.on("exit", () => reject(new Error(`Chromium exited before listening: ${seen}`)));
});

const score = (category) => Math.round((category?.score ?? 0) * 100);
const results = [];
try {
  for (const page of pages) {
    for (const [formFactor, config] of [["mobile", undefined], ["desktop", desktopConfig]]) {
      const all = [];
      for (let run = 0; run < runs; run++) all.push((await lighthouse(`${origin}/${page}`, { port, output: "json", logLevel: "error" }, config)).lhr);
      const lhr = all.sort((a, b) => a.categories.performance.score - b.categories.performance.score)[Math.floor(all.length / 2)];
      const { performance, accessibility, "best-practices": practices, seo } = lhr.categories;
      const metric = (id) => lhr.audits[id]?.displayValue ?? "";
      const result = {
        page,
        formFactor,
        performance: score(performance),
        accessibility: score(accessibility),
        bestPractices: score(practices),
        seo: score(seo),
        fcp: metric("first-contentful-paint"),
        lcp: metric("largest-contentful-paint"),
        tbt: metric("total-blocking-time"),
        cls: metric("cumulative-layout-shift"),
        si: metric("speed-index"),
        transferKB: Math.round((lhr.audits["total-byte-weight"]?.numericValue ?? 0) / 1024),
        failing: Object.values(lhr.categories)
          .filter(({ id }) => id !== "performance")
          .flatMap(({ auditRefs }) => auditRefs.filter(({ weight, id }) => weight > 0 && lhr.audits[id].score !== null && lhr.audits[id].score < 1).map(({ id }) => id)),
      };
      results.push(result);
      if (process.env.LIGHTHOUSE_DEBUG) console.log(JSON.stringify(lhr.audits[process.env.LIGHTHOUSE_DEBUG]?.details, null, 1).slice(0, 4000));
      console.log(
        `${page.padEnd(44)} ${formFactor.padEnd(8)} perf ${String(result.performance).padStart(3)}  a11y ${String(result.accessibility).padStart(3)}  bp ${String(result.bestPractices).padStart(3)}  seo ${String(result.seo).padStart(3)}  FCP ${result.fcp}  LCP ${result.lcp}  TBT ${result.tbt}  CLS ${result.cls}  SI ${result.si}  ${result.transferKB} KB${result.failing.length ? `  failing: ${result.failing.join(", ")}` : ""}`,
      );
    }
  }
} finally {
  chromium.kill();
  server.close();
}
if (values.json) console.log(JSON.stringify(results, null, 2));
