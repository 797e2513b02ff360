// The baseline of the single-machine bench: the client's own loop over the same creators (profile, then walkPosts),
// `concurrency` at a time, in a process of its own as the CLI runs in one. Usage: node walk-loop.mjs <baseUrl> <creators file> <concurrency> <rpm>
import { readFile } from "node:fs/promises";
import { createScraperClient } from "@content-scraper/client";

const [baseUrl, file, concurrency, rpm] = process.argv.slice(2);
const creators = (await readFile(file, "utf8")).split("\n").filter((line) => line !== "");
const client = createScraperClient({ apiKey: process.env.SCRAPER_API_KEY, baseUrl, rateLimit: { requestsPerMinute: Number(rpm) } });
let next = 0;
let posts = 0;
const worker = async () => {
  while (next < creators.length) {
    const creator = creators[next++];
    await client.profile("shortvideo", creator);
    for await (const _post of client.walkPosts("shortvideo", creator)) posts += 1;
  }
};
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
process.stdout.write(`${posts}\n`);
