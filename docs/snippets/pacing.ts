import { createScraperClient } from "@content-scraper/client";

// One client per process: all its calls share one token bucket. 120 per minute is the
// default for new accounts; set your account's rate, split between processes sharing a key.
const scraper = createScraperClient({ rateLimit: { requestsPerMinute: 120 } });

const creators = ["creator", "maya.bakes", "trailrunner"];
const calls = creators.map((creator) => scraper.profile("shortvideo", creator));
for (const result of await Promise.allSettled(calls)) {
  if (result.status === "rejected") continue;
  const { data, meta } = result.value;
  console.log(data.username, `${meta.rateLimit.remaining}/${meta.rateLimit.limit} left`);
}
