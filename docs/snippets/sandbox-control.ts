import { createScraperClient } from "@content-scraper/client";
import { startMock } from "@content-scraper/mock";

// Your test decides what the sandbox does next, and when "later" is.
const mock = await startMock({ port: 0, timeScale: 0 });
try {
  const scraper = createScraperClient({ apiKey: "scrape_live_control", baseUrl: mock.baseUrls.scraper, retry: { baseDelayMs: 10 } });
  await mock.setBalance("scrape_live_control", 5);
  // The next two profile lookups fail upstream (refunded); the client retries them.
  await mock.inject({ operation: "shortvideoProfile", status: 502, count: 2 });
  const { meta } = await scraper.profile("shortvideo", "creator");
  console.log(meta.creditsRemaining); // → 4
  const attempts = await mock.log({ operation: "shortvideoProfile" });
  console.log(attempts.map((entry) => entry.status).join(" ")); // → 502 502 200
  // A day later: buckets refilled, idempotency keys gone, new posts on page one.
  await mock.advance(24 * 3600);
  await mock.reset();
} finally {
  await mock.close();
}
