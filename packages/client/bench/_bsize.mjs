import { gzipSync } from "node:zlib";
import { build } from "esbuild";
const platform = process.argv[2] ?? "node";
const script = 'import { createScraperClient } from "@content-scraper/client";\nconsole.log(await createScraperClient().profile("shortvideo", "creator"));';
const result = await build({ stdin: { contents: script, resolveDir: process.cwd()+"/bench", sourcefile: "profile.mjs" }, bundle: true, minify: true, platform, format: "esm", write: false, metafile: true, logLevel: "error", external: (process.env.EXT||"").split(",").filter(Boolean) });
const code = result.outputFiles[0].contents;
console.log(platform, "total min", code.length, "gz", gzipSync(code).length);
const out = Object.values(result.metafile.outputs)[0];
for (const [k, v] of Object.entries(out.inputs).sort((a,b)=>b[1].bytesInOutput-a[1].bytesInOutput)) console.log(String(v.bytesInOutput).padStart(7), k.replace(/.*node_modules\//,""));
