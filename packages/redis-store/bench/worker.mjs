// One process of the fleet the bench runs. Connects, prints "ready", waits for "go" on stdin (so that every process
// starts together), does its job, prints one JSON line of what it saw, and exits.
// argv[2]: JSON { job: "pacing" | "budget", baseUrl, redisUrl, key, calls, limit, maxCredits }
//  - pacing: `calls` profile calls, one at a time, each paced by the rate-limit store on `key` (take → request →
//    correct from X-Scraper-RateLimit-Remaining, or pause for Retry-After on a 429 and send again);
//  - budget: posts pages until the shared budget of `maxCredits` refuses one (reserve → request → settle with
//    X-Scraper-Credits-Charged).
import { once } from "node:events";
import { countHeader, retryAfterMs, sleep } from "@content-scraper/runtime";
import { createRedisStores } from "../dist/index.js";

const { job, baseUrl, redisUrl, key, calls, limit, maxCredits } = JSON.parse(process.argv[2]);
const stores = createRedisStores({ redis: redisUrl });
const headers = { "content-type": "application/json", "x-api-key": "scrape_live_bench" };
await stores.budget.state(key); // connected before the start
process.stdout.write("ready\n");
await once(process.stdin, "data");

const seen = { rejected: 0, charged: 0, calls: 0 };
const send = async (resource) => {
  const response = await fetch(`${baseUrl}/scrape/shortvideo/${resource}`, { method: "POST", headers, body: JSON.stringify({ username: "creator" }) });
  await response.arrayBuffer();
  seen.calls++;
  seen.charged += countHeader(response.headers, "x-scraper-credits-charged") ?? 0;
  return response;
};

if (job === "pacing") {
  for (let i = 0; i < calls; i++) {
    for (;;) {
      for (let wait = await stores.rateLimit.take(key, limit); wait > 0; wait = await stores.rateLimit.take(key, limit)) await sleep(wait);
      const response = await send("profile");
      if (response.status === 429) {
        seen.rejected++;
        await stores.rateLimit.pause(key, limit, retryAfterMs(response.headers) ?? 1000);
        continue;
      }
      const remaining = countHeader(response.headers, "x-scraper-ratelimit-remaining");
      if (remaining !== undefined) await stores.rateLimit.correct(key, limit, remaining);
      break;
    }
  }
} else {
  // One credit a page: the description's price of a shortvideo posts page, and what the bench server charges.
  for (let reservation = await stores.budget.reserve(key, 1, maxCredits); reservation; reservation = await stores.budget.reserve(key, 1, maxCredits)) {
    const response = await send("posts");
    await stores.budget.settle(key, reservation, countHeader(response.headers, "x-scraper-credits-charged") ?? 0);
  }
}
process.stdout.write(`${JSON.stringify(seen)}\n`);
await stores.close();
