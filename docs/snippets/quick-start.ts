import { createScraperClient } from "@content-scraper/client";

// Reads SCRAPER_API_KEY (your scrape_live_… key) and SCRAPER_BASE_URL (https://<host>/api/v1).
const scraper = createScraperClient();

// 1 credit at the standard rate.
const { data: profile, meta } = await scraper.profile("shortvideo", "creator");
console.log(profile.username, profile.display_name, profile.follower_count);
console.log(`charged ${meta.creditsCharged}, ${meta.creditsRemaining} left, id ${meta.requestId}`);

// One page of recent posts: 1 credit per page.
const { data: page } = await scraper.posts("shortvideo", "creator");
for (const post of page.posts) console.log(post.id, post.views, post.postPage);

// One post by URL, with its transcript and a sample of top comments (no extra credits).
const url = "https://videosite.example/watch?v=aZ3kP9xQ1bE";
const { data: single } = await scraper.post("videosite", url, {
  includeTranscript: true,
  includeComments: true,
});
const [post] = single.posts;
console.log(post?.transcript ?? "no transcript", post?.topComments?.length ?? 0);
