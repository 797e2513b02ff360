import { createScraperClient } from "@content-scraper/client";
import { startMock } from "@content-scraper/mock";

// A sandbox for your test suite: port 0 picks a free port; the same seed gives the same answers.
const mock = await startMock({ port: 0, seed: "my-tests", timeScale: 0 });
try {
  const scraper = createScraperClient({
    apiKey: "scrape_live_my_sandbox_key", // any scrape_live_… key is an account of its own
    baseUrl: mock.baseUrls.scraper, // mock.url + "/api/v1"
    retry: { baseDelayMs: 10 }, // refunded errors retry at once instead of after 30 s
  });
  const { data, meta } = await scraper.profile("shortvideo", "creator");
  console.log(data.username, meta.creditsCharged, meta.creditsRemaining);
} finally {
  await mock.close();
}
