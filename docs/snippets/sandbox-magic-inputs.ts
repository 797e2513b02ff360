import { createScraperClient, ScraperApiError } from "@content-scraper/client";

// SCRAPER_BASE_URL is the base URL the sandbox prints, e.g. http://127.0.0.1:4010/api/v1,
// and SCRAPER_API_KEY any scrape_live_… key.
const sandbox = createScraperClient();

// `notfound`: the account does not exist: 404 PROFILE_NOT_FOUND, billed.
try {
  await sandbox.profile("shortvideo", "notfound");
} catch (error) {
  if (!(error instanceof ScraperApiError)) throw error;
  console.log(error.status, error.code, error.billed); // → 404 PROFILE_NOT_FOUND true
}

// `nopost`: no retrievable posts: 200 with an empty page, billed. Not an error.
const { data, meta } = await sandbox.posts("shortvideo", "nopost");
console.log(data.posts.length, meta.creditsCharged); // → 0 1
