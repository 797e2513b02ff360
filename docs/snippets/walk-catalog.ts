import { createScraperClient, postKey } from "@content-scraper/client";

const scraper = createScraperClient();
const stored = new Map<string, unknown>(); // your database, keyed on platform + id

const walk = scraper.walkPosts("shortvideo", "creator", {
  maxCredits: 50, // stops before a page would take the walk past 50 credits
  onPage: ({ pageNumber, creditsSpent, meta }) => {
    console.log(`page ${pageNumber}: ${creditsSpent} credits, ${meta.creditsRemaining} left`);
  },
});
for await (const post of walk) stored.set(postKey(post), post); // "shortvideo:<id>"
console.log(`${stored.size} posts`);
