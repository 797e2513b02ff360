import { createScraperClient, postKey } from "@content-scraper/client";

const scraper = createScraperClient();
// The keys you stored during the backfill (postKey(post), or the bare post ids).
const seen = new Set<string>(["shortvideo:7301234567890123456"]);

// One request, 1 credit: page one, minus what you already have.
for await (const post of scraper.newPosts("shortvideo", "creator", { seen })) {
  console.log("new:", post.id, post.uploadedAtFormatted);
  seen.add(postKey(post));
}
