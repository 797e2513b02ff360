// One process of the fleet the bench runs, a scraper client on the stores. Connects, prints "ready", waits for "go" on
// stdin (so that every process starts together), does its job, prints one JSON line of what it saw, and exits.
// argv[2]: JSON { job: "pacing" | "budget", shared, baseUrl, redisUrl, bucket, calls, inFlight, scale, maxCredits }
//  - pacing: `calls` profile calls, `inFlight` at a time (default 1), paced by the client on the Redis bucket (shared)
//    or on its own in-memory bucket (the default store: 8 processes, 8 independent buckets); `bucket` names the Redis
//    bucket (a case's own, not one a case before it drained);
//  - budget: posts pages (the bench server's catalog repeats its cursor, so one call a page rather than a walk), until
//    the budget of `maxCredits` shared on Redis refuses the next one.
import { once } from "node:events";
import { createScraperClient, memoryRateLimitStore, ScraperApiError, ScraperBudgetError } from "@content-scraper/client";
import { withBurst } from "@content-scraper/test-server/bucket";
import { createRedisStores } from "../dist/index.js";

const { job, shared, baseUrl, redisUrl, bucket, calls, inFlight = 1, scale, maxCredits } = JSON.parse(process.argv[2]);
const stores = createRedisStores({ redis: redisUrl });
await stores.budget.state("warm-up"); // connected before the start
process.stdout.write("ready\n");
await once(process.stdin, "data");

// Time runs `scale` times faster: the client is given `scale` times the account's rate, and the store sees the burst
// the client reads from the description divided by `scale`, so the bucket holds as many tokens as the account's.
const timeScaled = (store) => withBurst(store, (seconds) => seconds / scale);
const apiKey = "scrape_live_bench";
let pages = 0;
let failed = 0;
let client;
if (job === "pacing") {
  const store = timeScaled(shared ? stores.rateLimit : memoryRateLimitStore());
  client = createScraperClient({ apiKey, baseUrl, rateLimit: { requestsPerMinute: 120 * scale, store, key: bucket }, retry: { maxRetries: 20 } });
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < calls) {
        next++;
        // A call that still meets a 429 after its retries fails (independent buckets can starve one another): counted.
        await client.profile("shortvideo", "creator").catch((error) => {
          if (!(error instanceof ScraperApiError && error.status === 429)) throw error;
          failed++;
        });
      }
    }),
  );
} else {
  client = createScraperClient({ apiKey, baseUrl, rateLimit: false, budget: { maxCredits, store: stores.budget } });
  try {
    for (;;) {
      await client.posts("shortvideo", "creator");
      pages++;
    }
  } catch (error) {
    if (!(error instanceof ScraperBudgetError)) throw error;
  }
}
process.stdout.write(`${JSON.stringify({ ...client.usage, pages, failed })}\n`);
await stores.close();
