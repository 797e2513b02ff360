import {
  createScraperClient,
  ScraperApiError,
  ScraperInputError,
  ScraperTimeoutError,
} from "@content-scraper/client";

const scraper = createScraperClient();

/** What to do about a failed call. Branch on `code`, never on `message`. */
function nextStep(error: unknown): string {
  if (error instanceof ScraperTimeoutError) {
    return "timed out: the service may still have run (and billed) it; don't resend blindly";
  }
  if (error instanceof ScraperInputError) return `fix the ${error.field} option or argument`;
  if (!(error instanceof ScraperApiError)) throw error;
  switch (error.code) {
    case "PROFILE_NOT_FOUND":
    case "POST_NOT_FOUND":
    case "RESOURCE_NOT_FOUND":
      return "billed: the platform confirmed it does not exist; don't ask for it again";
    case "INVALID_INPUT":
      return `free: fix ${error.field} (${error.reason ?? error.serviceMessage}) and resend`;
    case "UNAUTHORIZED":
      return "free: send a scraper key (scrape_live_…) that has not been revoked";
    case "INSUFFICIENT_SCRAPER_CREDITS":
      return "free: top up the credit balance";
    case "PAYLOAD_TOO_LARGE":
      return "free: keep the body under 32 KB";
    default:
      // Refunded errors and rate limits that outlasted the client's retries cost nothing.
      if (error.retryable) return "free: put the work back on the queue for later";
      return `quote request ${error.requestId} to support`;
  }
}

try {
  const { data } = await scraper.profile("photoshare", "creator");
  console.log(data.follower_count);
} catch (error) {
  console.error(nextStep(error));
}
