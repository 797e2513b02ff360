import { createScraperClient, ScraperResponseError } from "@content-scraper/client";
import { validateResponses } from "@content-scraper/client/validate";
import { validateResponse } from "@content-scraper/validators/scraper";

// Check every body against the description as it arrives (the validator is its own entry, so a client without it
// bundles none of it)...
const scraper = createScraperClient({ validateResponses });
try {
  const { data } = await scraper.profile("microblog", "creator");
  console.log(data.username, data.follower_count);
} catch (error) {
  if (!(error instanceof ScraperResponseError)) throw error;
  for (const problem of error.problems) console.error(problem.path, problem.message);
}

// ...or a body you stored earlier, without a client: this one lacks the envelope's other fields.
const stored: unknown = JSON.parse('{"data":{"username":"creator"}}');
const result = validateResponse("microblogProfile", 200, stored);
console.log(result.valid); // → false
if (!result.valid) for (const { path, message } of result.errors) console.log(path || "(body)", message);
