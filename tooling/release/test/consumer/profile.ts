// Compiled and run in a Node-only project where only the client's tarball and those of its dependencies are installed:
// the key and base URL come from SCRAPER_API_KEY and SCRAPER_BASE_URL (the sandbox the test started).
import { createScraperClient, type ProfileData, type ScraperResult } from "@content-scraper/client";
import { scraperApi } from "@content-scraper/client/api";
import { focusedClient } from "@content-scraper/client/focused";

const scraper = createScraperClient();
const { data, meta }: ScraperResult<ProfileData<"shortvideo">> = await scraper.profile("shortvideo", "creator");
// The typed door, through the same client: its charge lands in the same ledger.
const { response } = await scraperApi(scraper).POST("/scrape/shortvideo/profile", { body: { username: "creator" } });
// A focused operation, through the same client.
const { meta: focusedMeta } = await focusedClient(scraper, "shortvideo").regions();
console.log(JSON.stringify({ username: data.username, creditsCharged: meta.creditsCharged, apiStatus: response.status, focusedCharged: focusedMeta.creditsCharged, ledger: scraper.usage.creditsCharged }));
