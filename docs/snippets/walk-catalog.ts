import { createScraperClient, postKey, type WalkState } from "@content-scraper/client";

const scraper = createScraperClient();
const stored = new Map<string, unknown>(); // your database, keyed on platform + id
let saved: WalkState | undefined; // your checkpoint: persist it with the posts

const walk = scraper.walkPages("shortvideo", "creator", {
  cursor: saved?.cursor, // resume where the last run stopped; page one when there is none
  maxCredits: 50, // stops before a page would take the walk past 50 credits
});
for await (const page of walk) {
  for (const post of page.items) stored.set(postKey(post), post); // "shortvideo:<id>"
  saved = walk.state; // points past this page: a crash from here on re-fetches nothing already stored
  console.log(`page ${page.pageNumber}: ${page.meta.creditsCharged} credit(s), ${page.meta.creditsRemaining} left`);
}
console.log(`${stored.size} posts, ${walk.state.creditsCharged} credits, stopped: ${String(walk.state.stoppedBecause)}`);
