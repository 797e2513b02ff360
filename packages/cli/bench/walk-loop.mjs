// The baseline of the single-machine bench: the client's own loop over the same creators (profile, then walkPosts),
// `concurrency` at a time, in a process of its own as the CLI runs in one, writing what it reads as the CLI does: one
// JSON line per profile and post, in one file per creator under `out`.
// Usage: node walk-loop.mjs <baseUrl> <creators file> <concurrency> <rpm> <out>
import { createWriteStream } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { once } from "node:events";
import { join } from "node:path";
import { createScraperClient } from "@content-scraper/client";

const [baseUrl, file, concurrency, rpm, out] = process.argv.slice(2);
const creators = (await readFile(file, "utf8")).split("\n").filter((line) => line !== "");
const client = createScraperClient({ apiKey: process.env.SCRAPER_API_KEY, baseUrl, rateLimit: { requestsPerMinute: Number(rpm) } });
await mkdir(out, { recursive: true });
let next = 0;
let posts = 0;
const worker = async () => {
  while (next < creators.length) {
    const creator = creators[next++];
    const lines = createWriteStream(join(out, `${creator}.jsonl`));
    const profile = await client.profile("shortvideo", creator);
    lines.write(`${JSON.stringify({ kind: "profile", creator, profile: profile.data })}\n`);
    for await (const post of client.walkPosts("shortvideo", creator)) {
      lines.write(`${JSON.stringify({ kind: "post", creator, post })}\n`);
      posts += 1;
    }
    lines.end();
    await once(lines, "finish");
  }
};
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
process.stdout.write(`${posts}\n`);
