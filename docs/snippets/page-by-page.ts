import { createScraperClient } from "@content-scraper/client";

const scraper = createScraperClient();
let cursor: string | undefined;
do {
  const { data, meta } = await scraper.posts("microblog", "creator", { cursor });
  console.log(`${data.posts.length} posts for ${meta.creditsCharged} credit(s)`);
  // Pass the cursor back verbatim; stop when it is absent or empty, whatever the page size.
  cursor = data.next_cursor || undefined;
} while (cursor);
