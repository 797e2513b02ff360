import { createScraperClient } from "@content-scraper/client";

// Reads SCRAPER_API_KEY (your scrape_live_… key) and SCRAPER_BASE_URL (the sandbox's URL, or https://<host>/api/v1).
const scraper = createScraperClient();

// A creator's profile: 1 credit at the standard rate.
const { data: profile, meta } = await scraper.profile("shortvideo", "creator");
console.log(profile.username, profile.display_name, profile.follower_count); // → creator Creator 3564511
console.log(`charged ${meta.creditsCharged}, ${meta.creditsRemaining} left`); // → charged 1, 999999 left

// One page of recent posts: 1 credit per page. Page on with next_cursor (see Catalog walks).
const { data: page } = await scraper.posts("shortvideo", "creator");
console.log(`${page.posts.length} posts, more: ${Boolean(page.next_cursor)}`); // → 32 posts, more: true

// One post by URL, with its transcript and a sample of top comments where the platform has them (no extra credits).
const url = "https://videosite.example/watch?v=aZ3kP9xQ1bE";
const { data: single } = await scraper.post("videosite", url, { includeTranscript: true, includeComments: true });
const [post] = single.posts;
console.log(post?.postPage === url, typeof post?.transcript); // → true string
