// An integrator's calls with openapi-fetch over openapi-typescript's types: a profile and a videosite posts page.
import createClient from "openapi-fetch";
import type { paths } from "../../generated/openapi-typescript/scraper/index.ts";

const scraper = createClient<paths>({ baseUrl: "https://scraper.example.test/api/v1", headers: { "x-api-key": "scrape_live_usage" } });

export async function calls(): Promise<void> {
  const profile = await scraper.POST("/scrape/shortvideo/profile", { body: { username: "creator" } });
  if (profile.data) console.log(profile.data.data.follower_count, profile.data.data.bio);
  const posts = await scraper.POST("/scrape/videosite/posts", { body: { username: "creator", contentType: "video" } });
  if (posts.data) console.log(posts.data.data.posts[0]?.id, posts.data.data.next_cursor);
}
